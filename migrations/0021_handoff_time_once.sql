ALTER TABLE `handoffs` ADD `taken_over` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- A hand-off's time is kept once, in handoffs (the inbox reads it there, beside the reply waits).
-- A chat a person took over by replying had it in session_desk only: it becomes that chat's
-- hand-off, marked taken over (no visitor waited, so it is not a reply wait), its first reply
-- the first operator message from then on. Whether it came within the team's hours cannot be
-- worked out here (the tenant's weekly hours in its time zone), so it counts as within them: a
-- person was answering at that moment.
INSERT INTO `handoffs` (`session_id`, `tenant_id`, `handoff_at`, `within_business_hours`, `taken_over`, `first_reply_at`)
	SELECT k.`session_id`, k.`tenant_id`, k.`handoff_at`, 1, 1,
		(SELECT min(m.`created_at`) FROM `chat_messages` AS m
			WHERE m.`session_id` = k.`session_id` AND m.`role` = 'operator' AND m.`created_at` >= k.`handoff_at`)
	FROM `session_desk` AS k
	WHERE k.`handoff_at` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `handoffs` AS h WHERE h.`session_id` = k.`session_id`);--> statement-breakpoint
ALTER TABLE `session_desk` DROP COLUMN `handoff_at`;