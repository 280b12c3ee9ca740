-- A visit's primary key becomes its identity, (domain_id, event_key), which the unique index already held: that
-- index becomes the key (no rebuild), and the index on id goes. Nothing read a visit by id alone; id stays unique
-- by its sequence and orders visits of the same instant in the time indexes. Every insert descended one B-tree less.
ALTER TABLE "visits" DROP CONSTRAINT "visits_pkey";--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_pkey" PRIMARY KEY USING INDEX "visits_domain_event_key_unique";
