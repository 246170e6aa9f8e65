import { PRIVACY_OPS } from "../sql/privacy.ts";
import type { MaintenanceQueries, PrivacyQueries } from "../store-privacy.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

// Erasure, export and chat retention on PostgreSQL: the shared statements
// (src/db/sql/privacy.ts) and the twin of the SQLite store's retention settings.

/**
 * A retention setting as SQLite's json_extract gives it, from the value's JSON type and its
 * text (`#>>`): numbers as numbers, true/false as 1/0, JSON null or a missing key as null, a
 * string as itself and an object or array as its (minified) JSON text.
 */
function retentionValue(type: string | null, text: string | null): number | null {
  if (type === null || text === null || type === "null") return null;
  if (type === "number") return Number(text);
  if (type === "boolean") return text === "true" ? 1 : 0;
  // Not a number: what json_extract would return, whatever the declared type says.
  return (type === "string" ? text : JSON.stringify(JSON.parse(text))) as unknown as number;
}

export function pgPrivacy(db: PgExec): PrivacyQueries {
  return {
    ...pgOps(db, PRIVACY_OPS),
    // Only tenants that set a retention. `#>>` is NULL for a missing key and for JSON null, like
    // json_extract; a config stored as a JSON string holding the document is read through it.
    listTenantRetention: async () =>
      (
        await db.all<{
          tenantId: string;
          chatType: string | null;
          chatText: string | null;
          analyticsType: string | null;
          analyticsText: string | null;
        }>(
          `SELECT tenant_id AS "tenantId",
                  json_typeof(doc #> '{retention,chat_days}') AS "chatType", doc #>> '{retention,chat_days}' AS "chatText",
                  json_typeof(doc #> '{retention,analytics_days}') AS "analyticsType", doc #>> '{retention,analytics_days}' AS "analyticsText"
             FROM (SELECT tenant_id, CASE WHEN json_typeof(config) = 'string' THEN (config #>> '{}')::json ELSE config END AS doc FROM chatbots) AS c
            WHERE doc #>> '{retention,chat_days}' IS NOT NULL OR doc #>> '{retention,analytics_days}' IS NOT NULL
            ORDER BY tenant_id`,
        )
      ).map((row) => ({
        tenantId: row.tenantId,
        chatDays: retentionValue(row.chatType, row.chatText),
        analyticsDays: retentionValue(row.analyticsType, row.analyticsText),
      })),
  };
}

export function pgMaintenance(_db: PgExec): MaintenanceQueries {
  return {
    // SQLite copies its WAL into the database file; PostgreSQL checkpoints by itself.
    checkpoint: async () => {},
  };
}
