-- Chat messages are queued for the search index by the statements that write them (a member of
-- their data-modifying CTEs, src/db/postgres/inbox.ts queueForSearch), no longer by a trigger.
DROP TRIGGER "chat_messages_search_queue" ON "chat_messages";--> statement-breakpoint
DROP FUNCTION "parley_queue_search"();
