ALTER TABLE "visits" DROP CONSTRAINT "visits_domain_id_domains_id_fk";
--> statement-breakpoint
-- What the key's ON DELETE CASCADE did: a removed domain's visits go with it (also when an account's removal
-- removes its domains), in one statement per deletion instead of a check per inserted visit.
CREATE FUNCTION "visits_delete_for_removed_domains"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "visits" WHERE "domain_id" IN (SELECT "id" FROM "removed_domains");
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "domains_delete_visits" AFTER DELETE ON "domains"
  REFERENCING OLD TABLE AS "removed_domains" FOR EACH STATEMENT
  EXECUTE FUNCTION "visits_delete_for_removed_domains"();
