-- The version behind the in-process tenant and bot-config caches (src/tenants/lookup-cache.ts):
-- any statement that writes tenants or chatbots, from any instance or a CLI command, bumps it
-- in the same transaction; each instance compares it before a cache hit.
CREATE TABLE "parley_lookup_version" ("id" integer PRIMARY KEY CHECK ("id" = 1), "version" bigint NOT NULL);
--> statement-breakpoint
INSERT INTO "parley_lookup_version" ("id", "version") VALUES (1, 0);
--> statement-breakpoint
CREATE FUNCTION parley_bump_lookup_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE parley_lookup_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tenants_lookup_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tenants" FOR EACH STATEMENT EXECUTE FUNCTION parley_bump_lookup_version();
--> statement-breakpoint
CREATE TRIGGER chatbots_lookup_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "chatbots" FOR EACH STATEMENT EXECUTE FUNCTION parley_bump_lookup_version();
--> statement-breakpoint
-- Counters shared by every instance: rate-limit windows and the in-memory caps' database twins
-- (src/db/postgres/counters.ts). A row per (name, window start); old windows are swept.
CREATE TABLE "parley_counters" ("key" text NOT NULL, "window_start" bigint NOT NULL, "count" integer NOT NULL, "expires_at" bigint NOT NULL, PRIMARY KEY ("key", "window_start"));
--> statement-breakpoint
CREATE INDEX "parley_counters_expiry_idx" ON "parley_counters" ("expires_at");
