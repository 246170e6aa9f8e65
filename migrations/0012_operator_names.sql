ALTER TABLE `users` ADD `display_name` text;--> statement-breakpoint
ALTER TABLE `chat_messages` ADD `author_name` text;