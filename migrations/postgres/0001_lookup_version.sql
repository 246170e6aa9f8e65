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
-- Limits shared by every instance (src/db/postgres/counters.ts). A sliding window is the times
-- of the hits it admitted, one row per key, updated under the row's lock by one upsert (so
-- instances taking hits for one key at once are serialised and none is lost); a fixed window
-- (the visitors' daily cap) is a count per key and window start. Expired rows are swept.
CREATE TABLE "parley_rate_windows" ("key" text COLLATE "C" PRIMARY KEY, "hits" bigint[] NOT NULL, "allowed" boolean NOT NULL, "expires_at" bigint NOT NULL);
--> statement-breakpoint
CREATE INDEX "parley_rate_windows_expiry_idx" ON "parley_rate_windows" ("expires_at");
--> statement-breakpoint
CREATE TABLE "parley_counters" ("key" text COLLATE "C" NOT NULL, "window_start" bigint NOT NULL, "count" integer NOT NULL, "expires_at" bigint NOT NULL, PRIMARY KEY ("key", "window_start"));
--> statement-breakpoint
CREATE INDEX "parley_counters_expiry_idx" ON "parley_counters" ("expires_at");
--> statement-breakpoint
-- Text compares and sorts byte by byte, as on SQLite, whatever the database's locale: ids are
-- time-ordered and cursor paging (`id < $n`), "since" windows (`id >= $n`) and max(id) rely on
-- that order. Equality (emails, keys) is unchanged.
ALTER TABLE "analytics_events" ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "session_id" TYPE text COLLATE "C", ALTER COLUMN "name" TYPE text COLLATE "C", ALTER COLUMN "day" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "name" TYPE text COLLATE "C", ALTER COLUMN "prefix" TYPE text COLLATE "C", ALTER COLUMN "key_hash" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "appointments" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "chatbot_id" TYPE text COLLATE "C", ALTER COLUMN "session_id" TYPE text COLLATE "C", ALTER COLUMN "timezone" TYPE text COLLATE "C", ALTER COLUMN "name" TYPE text COLLATE "C", ALTER COLUMN "phone" TYPE text COLLATE "C", ALTER COLUMN "email" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "session_id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "role" TYPE text COLLATE "C", ALTER COLUMN "text" TYPE text COLLATE "C", ALTER COLUMN "author_id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "chat_sessions" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "chatbot_id" TYPE text COLLATE "C", ALTER COLUMN "channel" TYPE text COLLATE "C", ALTER COLUMN "status" TYPE text COLLATE "C", ALTER COLUMN "state" TYPE text COLLATE "C", ALTER COLUMN "visitor_ref" TYPE text COLLATE "C", ALTER COLUMN "origin" TYPE text COLLATE "C", ALTER COLUMN "handoff_reason" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "chatbots" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "name" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "dead_letters" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "delivery_id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "rule_id" TYPE text COLLATE "C", ALTER COLUMN "event" TYPE text COLLATE "C", ALTER COLUMN "last_error" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "event_id" TYPE text COLLATE "C", ALTER COLUMN "rule_id" TYPE text COLLATE "C", ALTER COLUMN "event" TYPE text COLLATE "C", ALTER COLUMN "url" TYPE text COLLATE "C", ALTER COLUMN "status" TYPE text COLLATE "C", ALTER COLUMN "lease_token" TYPE text COLLATE "C", ALTER COLUMN "last_error" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "delivery_id" TYPE text COLLATE "C", ALTER COLUMN "error" TYPE text COLLATE "C", ALTER COLUMN "response_excerpt" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "event" TYPE text COLLATE "C", ALTER COLUMN "data" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "document_id" TYPE text COLLATE "C", ALTER COLUMN "heading" TYPE text COLLATE "C", ALTER COLUMN "text" TYPE text COLLATE "C", ALTER COLUMN "embedding_model" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "knowledge_documents" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "title" TYPE text COLLATE "C", ALTER COLUMN "format" TYPE text COLLATE "C", ALTER COLUMN "source_url" TYPE text COLLATE "C", ALTER COLUMN "content" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "chatbot_id" TYPE text COLLATE "C", ALTER COLUMN "session_id" TYPE text COLLATE "C", ALTER COLUMN "name" TYPE text COLLATE "C", ALTER COLUMN "phone" TYPE text COLLATE "C", ALTER COLUMN "email" TYPE text COLLATE "C", ALTER COLUMN "interest" TYPE text COLLATE "C", ALTER COLUMN "source" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "user_id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "role" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "payment_events" ALTER COLUMN "provider" TYPE text COLLATE "C", ALTER COLUMN "provider_event_id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "event_id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "user_id" TYPE text COLLATE "C", ALTER COLUMN "family_id" TYPE text COLLATE "C", ALTER COLUMN "token_hash" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "settings" ALTER COLUMN "key" TYPE text COLLATE "C", ALTER COLUMN "value" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "tenant_secrets" ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "payment_secret" TYPE text COLLATE "C", ALTER COLUMN "whatsapp_verify_token" TYPE text COLLATE "C", ALTER COLUMN "whatsapp_app_secret" TYPE text COLLATE "C", ALTER COLUMN "whatsapp_access_token" TYPE text COLLATE "C", ALTER COLUMN "whatsapp_phone_number_id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "tenants" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "name" TYPE text COLLATE "C", ALTER COLUMN "plan" TYPE text COLLATE "C", ALTER COLUMN "sector" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "usage_counters" ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "period" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "email" TYPE text COLLATE "C", ALTER COLUMN "password_hash" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "webhook_rules" ALTER COLUMN "id" TYPE text COLLATE "C", ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "name" TYPE text COLLATE "C", ALTER COLUMN "event" TYPE text COLLATE "C", ALTER COLUMN "url" TYPE text COLLATE "C", ALTER COLUMN "secret" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ALTER COLUMN "tenant_id" TYPE text COLLATE "C", ALTER COLUMN "message_id" TYPE text COLLATE "C";
