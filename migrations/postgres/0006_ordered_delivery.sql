-- COLLATE "C" added by hand (drizzle-kit does not emit it): every text column is "C" since 0001.
ALTER TABLE "deliveries" ADD COLUMN "stream_key" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "waits_for" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_rules" ADD COLUMN "ordering" text COLLATE "C" DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX "deliveries_stream_idx" ON "deliveries" USING btree ("stream_key","status") WHERE stream_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX "deliveries_waits_for_idx" ON "deliveries" USING btree ("waits_for") WHERE waits_for IS NOT NULL;