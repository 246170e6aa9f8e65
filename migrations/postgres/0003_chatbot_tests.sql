-- COLLATE "C" added by hand (drizzle-kit does not emit it): every text column is "C" since 0001.
CREATE TABLE "chatbot_test_runs" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"passed" integer NOT NULL,
	"failed" integer NOT NULL,
	"results" json NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chatbot_tests" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"turns" json NOT NULL,
	"language" text COLLATE "C",
	"expectation" json NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unanswered_questions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"tenant_id" text COLLATE "C" NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"question" text COLLATE "C" NOT NULL,
	"language" text COLLATE "C",
	"engine" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"resolved_at" bigint,
	"resolution" text COLLATE "C"
);
--> statement-breakpoint
ALTER TABLE "chatbot_test_runs" ADD CONSTRAINT "chatbot_test_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_tests" ADD CONSTRAINT "chatbot_tests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chatbot_test_runs_tenant_idx" ON "chatbot_test_runs" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "chatbot_tests_tenant_idx" ON "chatbot_tests" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "unanswered_questions_open_idx" ON "unanswered_questions" USING btree ("tenant_id","resolved_at","id");--> statement-breakpoint
CREATE INDEX "unanswered_questions_session_idx" ON "unanswered_questions" USING btree ("session_id");