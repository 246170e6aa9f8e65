ALTER TABLE `usage_counters` ADD `ai_calls` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `ai_prompt_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `ai_completion_tokens` integer DEFAULT 0 NOT NULL;