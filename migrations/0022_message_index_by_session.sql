PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_chat_messages` (
	`id` text NOT NULL,
	`session_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`role` text NOT NULL,
	`text` text NOT NULL,
	`quick_replies` text,
	`confidence` real,
	`author_id` text,
	`author_name` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_chat_messages`("rowid", "id", "session_id", "tenant_id", "role", "text", "quick_replies", "confidence", "author_id", "author_name", "created_at") SELECT "rowid", "id", "session_id", "tenant_id", "role", "text", "quick_replies", "confidence", "author_id", "author_name", "created_at" FROM `chat_messages`;--> statement-breakpoint
DROP TABLE `chat_messages`;--> statement-breakpoint
ALTER TABLE `__new_chat_messages` RENAME TO `chat_messages`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `chat_messages_session_idx` ON `chat_messages` (`session_id`,`id`);--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_queue` AFTER INSERT ON `chat_messages` WHEN new.`role` != 'bot' BEGIN
	INSERT INTO `chat_messages_fts_pending` (`message_rowid`) VALUES (new.rowid);
END;--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_delete` AFTER DELETE ON `chat_messages` WHEN old.`role` != 'bot' BEGIN
	DELETE FROM `chat_messages_fts` WHERE rowid = old.rowid;
	DELETE FROM `chat_messages_fts_pending` WHERE `message_rowid` = old.rowid;
END;
