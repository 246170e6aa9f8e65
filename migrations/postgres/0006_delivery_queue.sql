DROP INDEX "deliveries_due_idx";--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_attempt_at","id") WHERE status = 'pending';