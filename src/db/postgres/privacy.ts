import { PRIVACY_OPS } from "../sql/privacy.ts";
import type { MaintenanceQueries, PrivacyQueries } from "../store-privacy.ts";
import type { PgExec } from "./exec.ts";
import { pgOps } from "./statements.ts";

/** A retention setting as SQLite's json_extract gives it (true as 1, an object as its JSON text…). */
function retentionValue(type: string | null, text: string | null): number | null {
  if (type === null || text === null || type === "null") return null;
  if (type === "number") return Number(text);
  if (type === "boolean") return text === "true" ? 1 : 0;
  return (type === "string" ? text : JSON.stringify(JSON.parse(text))) as unknown as number;
}

export function pgPrivacy(db: PgExec): PrivacyQueries {
  return {
    ...pgOps(db, PRIVACY_OPS),
    // A config stored as a JSON string holding the document is read through it.
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
    checkpoint: async () => {},
  };
}
