import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { idTimeBound } from "../lib/ids.ts";

export interface TenantRetention {
  tenantId: string;
  chatDays: number | null;
  analyticsDays: number | null;
}

const statements = preparedFor((sqlite) => ({
  // Only tenants that set a retention; the rest keep everything (the default).
  retention: sqlite.prepare<{ tenant_id: string; chat_days: number | null; analytics_days: number | null }, []>(
    `SELECT tenant_id, json_extract(config, '$.retention.chat_days') AS chat_days, json_extract(config, '$.retention.analytics_days') AS analytics_days
     FROM chatbots
     WHERE json_extract(config, '$.retention.chat_days') IS NOT NULL OR json_extract(config, '$.retention.analytics_days') IS NOT NULL`,
  ),
  // Sessions created before the cutoff (an id range: ids sort by creation time) whose last
  // activity is too. The status list lets chat_sessions_tenant_status_id_idx serve the id range
  // instead of a scan of the tenant's sessions; no index on updated_at, which every message rewrites.
  // Messages go with their session (ON DELETE CASCADE). Ids carry the process clock's time (at
  // worst ahead of it after the clock stepped back): such a session is purged that much later.
  sessions: sqlite.prepare(
    `DELETE FROM chat_sessions WHERE id IN (
       SELECT id FROM chat_sessions
       WHERE tenant_id = ?1 AND status IN ('bot', 'handoff', 'closed') AND id < ?2 AND updated_at <= ?3
       LIMIT ?4)`,
  ),
}));

/** The per-tenant retention settings of the bot configs (`retention.chat_days`, `retention.analytics_days`). */
export function listTenantRetention(deps: Pick<Deps, "sqlite">): TenantRetention[] {
  return statements(deps.sqlite)
    .retention.all()
    .map((row) => ({ tenantId: row.tenant_id, chatDays: row.chat_days, analyticsDays: row.analytics_days }));
}

/**
 * Deletes up to `limit` of the tenant's chat sessions, with their transcripts, whose last
 * activity was at or before `cutoffMs`. Leads and appointments stay: they are the tenant's
 * business records, removed only by erasure (src/chat/erase-person.ts).
 */
export function purgeInactiveSessions(deps: Pick<Deps, "sqlite">, tenantId: string, cutoffMs: number, limit: number): number {
  return statements(deps.sqlite).sessions.run(tenantId, idTimeBound("ses", cutoffMs + 1), cutoffMs, limit).changes;
}
