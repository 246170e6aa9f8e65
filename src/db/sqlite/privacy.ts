import type { Database } from "bun:sqlite";
import { PRIVACY_OPS } from "../sql/privacy.ts";
import type { MaintenanceQueries, PrivacyQueries } from "../store-privacy.ts";
import type { SyncOf } from "./gate.ts";
import { sqliteOps } from "./statements.ts";

export function sqlitePrivacy(sqlite: Database): SyncOf<PrivacyQueries> {
  // Only tenants that set a retention; the rest keep everything (the default). Its twin reads
  // PostgreSQL's json (src/db/postgres/privacy.ts).
  const retention = sqlite.prepare<{ tenantId: string; chatDays: number | null; analyticsDays: number | null }, []>(
    `SELECT tenant_id AS "tenantId", json_extract(config, '$.retention.chat_days') AS "chatDays", json_extract(config, '$.retention.analytics_days') AS "analyticsDays"
     FROM chatbots
     WHERE json_extract(config, '$.retention.chat_days') IS NOT NULL OR json_extract(config, '$.retention.analytics_days') IS NOT NULL`,
  );
  return { ...sqliteOps(sqlite, PRIVACY_OPS), listTenantRetention: () => retention.all() };
}

export function sqliteMaintenance(sqlite: Database): SyncOf<MaintenanceQueries> {
  return {
    checkpoint: () => {
      sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
    },
  };
}
