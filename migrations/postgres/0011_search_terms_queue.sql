-- The search index of chat messages leaves the chat path, as on SQLite: a message is only queued
-- by a trigger when written, and the catch-up (housekeeping, and before each search) writes its
-- tenant-scoped terms into chat_message_terms, whose GIN index replaces chat_messages_search_idx.
CREATE TABLE "chat_message_terms" (
	"message_id" text COLLATE "C" PRIMARY KEY NOT NULL REFERENCES "chat_messages"("id") ON DELETE CASCADE,
	"tenant_id" text COLLATE "C" NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"terms" tsvector NOT NULL
);--> statement-breakpoint
CREATE INDEX "chat_message_terms_idx" ON "chat_message_terms" USING gin ("terms");--> statement-breakpoint
CREATE TABLE "chat_messages_search_pending" (
	"message_id" text COLLATE "C" PRIMARY KEY NOT NULL
);--> statement-breakpoint
CREATE FUNCTION "parley_queue_search"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO chat_messages_search_pending (message_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "chat_messages_search_queue" AFTER INSERT ON "chat_messages"
	FOR EACH ROW WHEN (NEW.role <> 'bot') EXECUTE FUNCTION "parley_queue_search"();--> statement-breakpoint
INSERT INTO "chat_messages_search_pending" ("message_id") SELECT "id" FROM "chat_messages" WHERE "role" <> 'bot';--> statement-breakpoint
DROP INDEX "chat_messages_search_idx";
