import { liveEvents } from "../schema.ts";
import { asNumber, insertRow, many, one, type Ops, parsedJson, write } from "../statements.ts";
import type { LiveEventQueries, LiveEventRow } from "../store-live.ts";

// Ids are an identity (PostgreSQL) or the rowid (SQLite): both order the events.

export const LIVE_EVENT_OPS: Ops<LiveEventQueries> = {
  insertLiveEvent: insertRow(liveEvents),
  listLiveEventsAfter: many(
    (d) => `SELECT ${d.columns(liveEvents)} FROM live_events WHERE id > $1 ORDER BY id LIMIT $2`,
    (afterId, limit) => [afterId, limit],
    parseRows,
  ),
  listTenantLiveEventsAfter: many(
    (d) => `SELECT ${d.columns(liveEvents)} FROM live_events WHERE tenant_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    (tenantId, afterId, limit) => [tenantId, afterId, limit],
    parseRows,
  ),
  listSessionLiveEventsAfter: many(
    (d) => `SELECT ${d.columns(liveEvents)} FROM live_events WHERE session_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    (sessionId, afterId, limit) => [sessionId, afterId, limit],
    parseRows,
  ),
  findLatestLiveEventId: one(
    "SELECT max(id) AS id FROM live_events",
    () => [],
    (row: { id: unknown } | null) => asNumber(row?.id),
  ),
  purgeLiveEventsBefore: write("DELETE FROM live_events WHERE created_at < $1", (createdBefore) => [createdBefore]),
};

function parseRows(rows: LiveEventRow[]): LiveEventRow[] {
  return rows.map((row) => ({ ...row, id: asNumber(row.id), data: parsedJson(row.data) }));
}
