-- COLLATE "C" added by hand (drizzle-kit does not emit it): every text column is "C" since 0001.
ALTER TABLE "chat_messages" ADD COLUMN "author_name" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "display_name" text COLLATE "C";
