-- The words of the search index, as FTS5 holds them (already behind their tenant's key), so a
-- search's prefix becomes an OR of exact terms, which FTS5 walks lazily in rowid order. Filled by
-- the same catch-up that feeds the FTS5 tables; filled here from what they already hold.
CREATE TABLE `search_vocabulary` (`term` text PRIMARY KEY NOT NULL) WITHOUT ROWID;--> statement-breakpoint
CREATE VIRTUAL TABLE temp.`search_vocabulary_messages` USING fts5vocab(main, 'chat_messages_fts', 'row');--> statement-breakpoint
CREATE VIRTUAL TABLE temp.`search_vocabulary_leads` USING fts5vocab(main, 'leads_fts', 'row');--> statement-breakpoint
INSERT OR IGNORE INTO `search_vocabulary` (`term`) SELECT `term` FROM temp.`search_vocabulary_messages`;--> statement-breakpoint
INSERT OR IGNORE INTO `search_vocabulary` (`term`) SELECT `term` FROM temp.`search_vocabulary_leads`;--> statement-breakpoint
DROP TABLE temp.`search_vocabulary_messages`;--> statement-breakpoint
DROP TABLE temp.`search_vocabulary_leads`;
--> statement-breakpoint
-- A lead's replaced name, e-mail and phone, until the catch-up (or an erasure) takes out the
-- words no row of the index still holds.
CREATE TABLE `search_vocabulary_stale` (`tenant_id` text NOT NULL, `text` text NOT NULL);--> statement-breakpoint
DROP TRIGGER `leads_fts_update`;--> statement-breakpoint
CREATE TRIGGER `leads_fts_update` AFTER UPDATE OF `name`, `email`, `phone` ON `leads` BEGIN
	DELETE FROM `leads_fts` WHERE rowid = old.rowid;
	INSERT OR IGNORE INTO `leads_fts_pending` (`lead_rowid`) VALUES (new.rowid);
	INSERT INTO `search_vocabulary_stale` (`tenant_id`, `text`) VALUES (old.`tenant_id`, old.`name` || ' ' || old.`email` || ' ' || old.`phone`);
END;
