-- COLLATE "C" added by hand (drizzle-kit does not emit it): every text column is "C" since 0001.
CREATE TABLE "handoffs" (
	"session_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"handoff_at" bigint NOT NULL,
	"within_business_hours" boolean NOT NULL,
	"first_reply_at" bigint,
	"seen_message_id" text COLLATE "C"
);
--> statement-breakpoint
CREATE TABLE "session_ratings" (
	"session_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"score" integer NOT NULL,
	"comment" text COLLATE "C",
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_ratings" ADD CONSTRAINT "session_ratings_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_ratings" ADD CONSTRAINT "session_ratings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "handoffs_tenant_idx" ON "handoffs" USING btree ("tenant_id","handoff_at");--> statement-breakpoint
CREATE INDEX "session_ratings_tenant_idx" ON "session_ratings" USING btree ("tenant_id","created_at");