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
CREATE VIRTUAL TABLE `chat_messages_fts` USING fts5(`text`, content='chat_messages', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');--> statement-breakpoint
INSERT INTO `chat_messages_fts` (rowid, `text`) SELECT rowid, `text` FROM `chat_messages` WHERE `role` != 'bot';--> statement-breakpoint
CREATE TABLE `chat_messages_fts_pending` (`message_rowid` integer PRIMARY KEY NOT NULL);--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_queue` AFTER INSERT ON `chat_messages` WHEN new.`role` != 'bot' BEGIN
	INSERT INTO `chat_messages_fts_pending` (`message_rowid`) VALUES (new.rowid);
END;--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_index` AFTER DELETE ON `chat_messages_fts_pending` BEGIN
	INSERT INTO `chat_messages_fts` (rowid, `text`) SELECT rowid, `text` FROM `chat_messages` WHERE rowid = old.`message_rowid`;
END;--> statement-breakpoint
CREATE TRIGGER `chat_messages_fts_delete` AFTER DELETE ON `chat_messages` WHEN old.`role` != 'bot' BEGIN
	INSERT INTO `chat_messages_fts` (`chat_messages_fts`, rowid, `text`)
		SELECT 'delete', old.rowid, old.`text` WHERE NOT EXISTS (SELECT 1 FROM `chat_messages_fts_pending` WHERE `message_rowid` = old.rowid);
	DELETE FROM `chat_messages_fts_pending` WHERE `message_rowid` = old.rowid;
END;--> statement-breakpoint
CREATE VIRTUAL TABLE `leads_fts` USING fts5(`name`, `email`, `phone`, content='leads', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');--> statement-breakpoint
INSERT INTO `leads_fts` (`leads_fts`) VALUES ('rebuild');--> statement-breakpoint
CREATE TRIGGER `leads_fts_insert` AFTER INSERT ON `leads` BEGIN
	INSERT INTO `leads_fts` (rowid, `name`, `email`, `phone`) VALUES (new.rowid, new.`name`, new.`email`, new.`phone`);
END;--> statement-breakpoint
CREATE TRIGGER `leads_fts_delete` AFTER DELETE ON `leads` BEGIN
	INSERT INTO `leads_fts` (`leads_fts`, rowid, `name`, `email`, `phone`) VALUES ('delete', old.rowid, old.`name`, old.`email`, old.`phone`);
END;--> statement-breakpoint
CREATE TRIGGER `leads_fts_update` AFTER UPDATE OF `name`, `email`, `phone` ON `leads` BEGIN
	INSERT INTO `leads_fts` (`leads_fts`, rowid, `name`, `email`, `phone`) VALUES ('delete', old.rowid, old.`name`, old.`email`, old.`phone`);
	INSERT INTO `leads_fts` (rowid, `name`, `email`, `phone`) VALUES (new.rowid, new.`name`, new.`email`, new.`phone`);
END;
--> statement-breakpoint
INSERT INTO `session_desk` (`session_id`, `tenant_id`, `handoff_at`) SELECT `id`, `tenant_id`, `updated_at` FROM `chat_sessions` WHERE `status` = 'handoff';
