import type { Database } from "bun:sqlite";
import { INACTIVE_SESSIONS, PRIVACY_OPS } from "../sql/privacy.ts";
import type { MaintenanceQueries, PrivacyQueries } from "../store-privacy.ts";
import type { SyncOf } from "./gate.ts";
import type { SearchVocabulary } from "./search-vocabulary.ts";
import { sqliteOps, sqliteText } from "./statements.ts";

export function sqlitePrivacy(sqlite: Database, vocabulary: SearchVocabulary): SyncOf<PrivacyQueries> {
  const retention = sqlite.prepare<{ tenantId: string; chatDays: number | null; analyticsDays: number | null }, []>(
    `SELECT tenant_id AS "tenantId", json_extract(config, '$.retention.chat_days') AS "chatDays", json_extract(config, '$.retention.analytics_days') AS "analyticsDays"
     FROM chatbots
     WHERE json_extract(config, '$.retention.chat_days') IS NOT NULL OR json_extract(config, '$.retention.analytics_days') IS NOT NULL`,
  );
  const ops = sqliteOps(sqlite, PRIVACY_OPS);
  const inactive = sqlite.prepare<{ id: string }, [string, string, number, number]>(sqliteText(INACTIVE_SESSIONS));
  // The batch is read first, in the same transaction, so the vocabulary learns whose words went.
  const purge = sqlite.transaction((tenantId: string, beforeId: string, cutoffMs: number, limit: number) => {
    const ids = inactive.all(tenantId, beforeId, cutoffMs, limit).map((row) => row.id);
    return vocabulary.erasing("chatSessions", ids, () =>
      ops.purgeInactiveSessions(tenantId, beforeId, cutoffMs, limit),
    );
  });
  return {
    ...ops,
    // An erased person's words leave the search vocabulary in the same transaction.
    deleteRows: (table, ids) =>
      table === "leads" || table === "chatSessions"
        ? vocabulary.erasing(table, ids.map(String), () => ops.deleteRows(table, ids))
        : ops.deleteRows(table, ids),
    purgeInactiveSessions: (tenantId, beforeId, cutoffMs, limit) =>
      purge.immediate(tenantId, beforeId, cutoffMs, limit),
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
