-- A computed event key (an event sent without an id, a log line) begins with its event's time: "t:" + the time in
-- milliseconds since the epoch as hexadecimal (at least 12 digits) + ":" + the first 22 characters (132 bits) of the
-- same SHA-256 as before in base64url (+ "#n" for the n-th identical line of one log upload). The same event still
-- gets the same key, and a batch's keys now land in the newest pages of the visits' primary key instead of random
-- pages of all of it. The keys stored before ("sha256:" + 64 hexadecimal digits) are rewritten to what ingest now
-- computes for the same event (the time is the visit's occurred_at, which is the hashed timestamp), so an event or a
-- log sent again after the upgrade is still recognised as stored. Client ids ("id:…") are unchanged. Every visit
-- with a computed key is updated: about 2.5 minutes for 11 million on a 2-core machine, longer than the statement
-- timeout the service sets on its connections (DATABASE_STATEMENT_TIMEOUT_MS, 30 s by default), which is lifted for
-- the rest of the migrations' transaction.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
UPDATE "visits" SET "event_key" = 't:'
  || (CASE WHEN "occurred_at" < 'epoch' THEN '-' ELSE '' END)
  || lpad(to_hex(abs((extract(epoch FROM "occurred_at") * 1000)::bigint)),
          greatest(12, length(to_hex(abs((extract(epoch FROM "occurred_at") * 1000)::bigint)))), '0')
  || ':' || substr(translate(encode(decode(substr("event_key", 8, 64), 'hex'), 'base64'), '+/', '-_'), 1, 22)
  || substr("event_key", 72)
WHERE "event_key" LIKE 'sha256:%';
