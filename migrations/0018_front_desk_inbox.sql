CREATE TABLE `canned_replies` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`shortcut` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `canned_replies_shortcut_idx` ON `canned_replies` (`tenant_id`,`shortcut`);--> statement-breakpoint
CREATE TABLE `inbox_reads` (
	`session_id` text NOT NULL,
	`user_id` text NOT NULL,
	`tenant_id` text NOT NULL,
	`last_read_id` text NOT NULL,
	`read_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `user_id`),
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `session_desk` (
	`session_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`page_url` text,
	`handoff_at` integer,
	`assigned_to` text,
	`assigned_at` integer,
	FOREIGN KEY (`session_id`) REFERENCES `chat_sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assigned_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `session_desk_assigned_idx` ON `session_desk` (`tenant_id`,`assigned_to`);--> statement-breakpoint
CREATE INDEX `appointments_session_idx` ON `appointments` (`session_id`);--> statement-breakpoint
CREATE INDEX `leads_session_idx` ON `leads` (`session_id`);--> statement-breakpoint
CREATE VIRTUAL TABLE `chat_messages_fts` USING fts5(`terms`, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');--> statement-breakpoint
CREATE TABLE `chat_messages_fts_pending` (`message_rowid` integer PRIMARY KEY NOT NULL);--> statement-breakpoint
INSERT INTO `chat_messages_fts_pending` (`message_rowid`) SELECT rowid FROM `chat_messages` WHERE `role` != 'bot';--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_queue` AFTER INSERT ON `chat_messages` WHEN new.`role` != 'bot' BEGIN
	INSERT INTO `chat_messages_fts_pending` (`message_rowid`) VALUES (new.rowid);
END;--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_delete` AFTER DELETE ON `chat_messages` WHEN old.`role` != 'bot' BEGIN
	DELETE FROM `chat_messages_fts` WHERE rowid = old.rowid;
	DELETE FROM `chat_messages_fts_pending` WHERE `message_rowid` = old.rowid;
END;--> statement-breakpoint
CREATE VIRTUAL TABLE `leads_fts` USING fts5(`terms`, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');--> statement-breakpoint
CREATE TABLE `leads_fts_pending` (`lead_rowid` integer PRIMARY KEY NOT NULL);--> statement-breakpoint
INSERT INTO `leads_fts_pending` (`lead_rowid`) SELECT rowid FROM `leads`;--> statement-breakpoint
CREATE TRIGGER `leads_fts_queue` AFTER INSERT ON `leads` BEGIN
	INSERT OR IGNORE INTO `leads_fts_pending` (`lead_rowid`) VALUES (new.rowid);
END;--> statement-breakpoint
CREATE TRIGGER `leads_fts_delete` AFTER DELETE ON `leads` BEGIN
	DELETE FROM `leads_fts` WHERE rowid = old.rowid;
	DELETE FROM `leads_fts_pending` WHERE `lead_rowid` = old.rowid;
END;--> statement-breakpoint
CREATE TRIGGER `leads_fts_update` AFTER UPDATE OF `name`, `email`, `phone` ON `leads` BEGIN
	DELETE FROM `leads_fts` WHERE rowid = old.rowid;
	INSERT OR IGNORE INTO `leads_fts_pending` (`lead_rowid`) VALUES (new.rowid);
END;
--> statement-breakpoint
INSERT INTO `session_desk` (`session_id`, `tenant_id`, `handoff_at`) SELECT `id`, `tenant_id`, `updated_at` FROM `chat_sessions` WHERE `status` = 'handoff';
