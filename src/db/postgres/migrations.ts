import type { SQL } from "bun";
import journal from "../../../migrations/postgres/meta/_journal.json" with { type: "json" };
import init from "../../../migrations/postgres/0000_init.sql" with { type: "text" };
import lookupVersion from "../../../migrations/postgres/0001_lookup_version.sql" with { type: "text" };
import operatorNames from "../../../migrations/postgres/0002_operator_names.sql" with { type: "text" };
import chatbotTests from "../../../migrations/postgres/0003_chatbot_tests.sql" with { type: "text" };
import liveEvents from "../../../migrations/postgres/0004_live_events.sql" with { type: "text" };
import webhookFeatures from "../../../migrations/postgres/0005_webhook_features.sql" with { type: "text" };
import orderedDelivery from "../../../migrations/postgres/0006_ordered_delivery.sql" with { type: "text" };
import frontDeskVisitor from "../../../migrations/postgres/0007_front_desk_visitor.sql" with { type: "text" };
import frontDeskInbox from "../../../migrations/postgres/0008_front_desk_inbox.sql" with { type: "text" };
import deliveryQueue from "../../../migrations/postgres/0009_delivery_queue.sql" with { type: "text" };
import knowledgeSources from "../../../migrations/postgres/0010_knowledge_sources.sql" with { type: "text" };
import searchTermsQueue from "../../../migrations/postgres/0011_search_terms_queue.sql" with { type: "text" };
import searchQueueInStatements from "../../../migrations/postgres/0012_search_queue_in_statements.sql" with {
  type: "text",
};
import deskHandoffAndAccents from "../../../migrations/postgres/0013_desk_handoff_and_accents.sql" with {
  type: "text",
};
import attemptsWithoutFk from "../../../migrations/postgres/0014_attempts_without_fk.sql" with { type: "text" };
import deliveriesFillfactor30 from "../../../migrations/postgres/0015_deliveries_fillfactor_30.sql" with {
  type: "text",
};
import searchFoldsCase from "../../../migrations/postgres/0016_search_folds_case.sql" with { type: "text" };
import type { MigrationResult } from "../migrate.ts";

// Embedded like the SQLite set; test/db/migrate.test.ts fails on a missing entry.
export const PG_MIGRATION_JOURNAL = journal;

export const PG_MIGRATIONS: ReadonlyArray<{ tag: string; sql: string }> = [
  { tag: "0000_init", sql: init },
  { tag: "0001_lookup_version", sql: lookupVersion },
  { tag: "0002_operator_names", sql: operatorNames },
  { tag: "0003_chatbot_tests", sql: chatbotTests },
  { tag: "0004_live_events", sql: liveEvents },
  { tag: "0005_webhook_features", sql: webhookFeatures },
  { tag: "0006_ordered_delivery", sql: orderedDelivery },
  { tag: "0007_front_desk_visitor", sql: frontDeskVisitor },
  { tag: "0008_front_desk_inbox", sql: frontDeskInbox },
  { tag: "0009_delivery_queue", sql: deliveryQueue },
  { tag: "0010_knowledge_sources", sql: knowledgeSources },
  { tag: "0011_search_terms_queue", sql: searchTermsQueue },
  { tag: "0012_search_queue_in_statements", sql: searchQueueInStatements },
  { tag: "0013_desk_handoff_and_accents", sql: deskHandoffAndAccents },
  { tag: "0014_attempts_without_fk", sql: attemptsWithoutFk },
  { tag: "0015_deliveries_fillfactor_30", sql: deliveriesFillfactor30 },
  { tag: "0016_search_folds_case", sql: searchFoldsCase },
];

/** Any fixed number: the lock that makes instances starting together apply each migration once. */
const MIGRATION_LOCK = 72_616_001;

/** Each in its own transaction under an advisory lock, so instances starting together apply it once. */
export async function applyPgMigrations(sql: SQL, nowMs: number): Promise<MigrationResult> {
  await sql.unsafe(
    "CREATE TABLE IF NOT EXISTS parley_migrations (tag text PRIMARY KEY NOT NULL, applied_at bigint NOT NULL)",
  );
  const applied: string[] = [];
  let alreadyApplied = 0;
  for (const migration of PG_MIGRATIONS) {
    const didApply = await sql.begin(async (tx) => {
      await tx.unsafe("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      const [seen] = await tx.unsafe("SELECT tag FROM parley_migrations WHERE tag = $1", [migration.tag]);
      if (seen) return false;
      // One round trip (simple protocol); without drizzle-kit's "public". so search_path decides.
      await tx.unsafe(migration.sql.replaceAll("--> statement-breakpoint", "").replaceAll('"public".', "")).simple();
      await tx.unsafe("INSERT INTO parley_migrations (tag, applied_at) VALUES ($1, $2)", [migration.tag, nowMs]);
      return true;
    });
    if (didApply) applied.push(migration.tag);
    else alreadyApplied++;
  }
  return { applied, alreadyApplied };
}
