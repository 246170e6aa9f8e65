import type { Database } from "bun:sqlite";
import { PRIVACY_OPS } from "../sql/privacy.ts";
import type { MaintenanceQueries, PrivacyQueries } from "../store-privacy.ts";
import type { SyncOf } from "./gate.ts";
import type { SearchVocabulary } from "./search-vocabulary.ts";
import { sqliteOps } from "./statements.ts";

export function sqlitePrivacy(sqlite: Database, vocabulary: SearchVocabulary): SyncOf<PrivacyQueries> {
  // Only tenants that set a retention; the rest keep everything (the default). Its twin reads
  // PostgreSQL's json (src/db/postgres/privacy.ts).
  const retention = sqlite.prepare<{ tenantId: string; chatDays: number | null; analyticsDays: number | null }, []>(
    `SELECT tenant_id AS "tenantId", json_extract(config, '$.retention.chat_days') AS "chatDays", json_extract(config, '$.retention.analytics_days') AS "analyticsDays"
     FROM chatbots
     WHERE json_extract(config, '$.retention.chat_days') IS NOT NULL OR json_extract(config, '$.retention.analytics_days') IS NOT NULL`,
  );
  const ops = sqliteOps(sqlite, PRIVACY_OPS);
  return {
    ...ops,
    // An erased person's words leave the search vocabulary with their texts, in the same transaction.
    deleteRows: (table, ids) =>
      table === "leads" || table === "chatSessions"
        ? vocabulary.erasing(table, ids.map(String), () => ops.deleteRows(table, ids))
        : ops.deleteRows(table, ids),
    listTenantRetention: () => retention.all(),
  };
}

export function sqliteMaintenance(sqlite: Database): SyncOf<MaintenanceQueries> {
  return {
    checkpoint: () => {
      sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
    },
  };
}
