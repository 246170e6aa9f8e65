import type { Database } from "bun:sqlite";
import { TOP } from "../search-terms.ts";

// FTS5 hands matches out in rowid (insertion) order cheaply, which is close to time order but not
// equal. So the walk takes the first sessions it meets, then proves no newer one was missed: such
// a session's match is among its few rows inserted before where the walk stopped, checked by rowid.

/** Past this many matched rows, the full sort (a page deep in a common word). */
const WALK_CAP = 5_000;
/** Past this many newer sessions to check, the full sort. */
const CHECK_CAP = 2_000;

interface Source {
  /** The tenant's matches, newest inserted first: (rowid, session). */
  walk: string;
  /** The rows of the tenant's sessions in (after, before) inserted before a rowid. */
  older: string;
  /** Which of the given rowids match. */
  check: string;
}

const source = (table: string, fts: string, own: string): Source => ({
  walk: `SELECT f.rowid AS rowid, t.session_id AS sessionId FROM ${fts} AS f JOIN ${table} AS t ON t.rowid = f.rowid
    WHERE ${fts} MATCH ?1 AND t.tenant_id = ?2 ORDER BY f.rowid DESC`,
  older: `SELECT t.rowid AS rowid, t.session_id AS sessionId FROM chat_sessions AS s JOIN ${table} AS t ON t.session_id = s.id
    WHERE s.tenant_id = ?1 AND s.id > ?2 AND s.id < ?3 AND t.rowid < ?4${own}`,
  check: `SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?1 AND rowid IN (SELECT value FROM json_each(?2))`,
});

export const SEARCH_WALK_SOURCES = [
  source("chat_messages", "chat_messages_fts", " AND t.role <> 'bot'"),
  source("leads", "leads_fts", ""),
];

interface Row {
  rowid: number;
  sessionId: string;
}

const newestFirst = (ids: Iterable<string>, limit: number) =>
  [...ids].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, limit);

/** Exactly as a sort of every match would answer; null when the walk would cost more. */
export function sqliteSearchWalk(sqlite: Database) {
  const prepared = SEARCH_WALK_SOURCES.map((given) => ({
    walk: sqlite.prepare<Row, [string, string]>(given.walk),
    older: sqlite.prepare<Row, [string, string, string, number]>(given.older),
    check: sqlite.prepare<{ rowid: number }, [string, string]>(given.check),
  }));
  const sessionsIn = sqlite.prepare<{ n: number }, [string, string, string, number]>(
    "SELECT count(*) AS n FROM (SELECT 1 FROM chat_sessions WHERE tenant_id = ?1 AND id > ?2 AND id < ?3 LIMIT ?4)",
  );

  const newest = (
    steps: (typeof prepared)[number],
    tenantId: string,
    match: string,
    before: string,
    limit: number,
  ): string[] | null => {
    const found = new Set<string>();
    let stoppedAt = 0;
    let walked = 0;
    for (const row of steps.walk.iterate(match, tenantId)) {
      if (++walked > WALK_CAP) return null;
      stoppedAt = row.rowid;
      if (row.sessionId < before) found.add(row.sessionId);
      if (found.size >= limit) break;
    }
    if (found.size < limit) return newestFirst(found, limit); // every match was read
    const last = newestFirst(found, limit).at(-1) as string;
    if ((sessionsIn.get(tenantId, last, before, CHECK_CAP + 1)?.n ?? 0) > CHECK_CAP) return null;
    const unseen = steps.older.all(tenantId, last, before, stoppedAt).filter((row) => !found.has(row.sessionId));
    if (unseen.length > 0) {
      const sessionOf = new Map(unseen.map((row) => [row.rowid, row.sessionId]));
      for (const { rowid } of steps.check.all(match, JSON.stringify([...sessionOf.keys()])))
        found.add(sessionOf.get(rowid) as string);
    }
    return newestFirst(found, limit);
  };

  return (tenantId: string, match: string, beforeId: string | null, limit: number): string[] | null => {
    const sessions: string[] = [];
    for (const steps of prepared) {
      const found = newest(steps, tenantId, match, beforeId ?? TOP, limit);
      if (found === null) return null;
      sessions.push(...found);
    }
    return newestFirst(new Set(sessions), limit);
  };
}
