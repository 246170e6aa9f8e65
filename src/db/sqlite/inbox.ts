import type { Database } from "bun:sqlite";
import { indexedTerms } from "../search-terms.ts";
import { INBOX_OPS } from "../sql/inbox.ts";
import type { InboxQueries } from "../store-inbox.ts";
import type { SyncOf } from "./gate.ts";
import { sqliteSearchWalk } from "./search-walk.ts";
import { sqliteOps } from "./statements.ts";

interface Queued {
  rowid: number;
  tenantId: string;
  text: string;
}

/**
 * The inbox on SQLite: the shared statements, search's newest-first walk, and the search index's catch-up. The FTS5 tables
 * are contentless and hold tenant-scoped terms made here (migration 0018 queues the rows by
 * trigger, and deletes their terms by rowid).
 */
export function sqliteInbox(sqlite: Database): SyncOf<InboxQueries> {
  const queue = (table: string, pending: string, column: string, text: string) => ({
    read: sqlite.prepare<Queued, [number]>(
      `SELECT p.${column} AS rowid, t.tenant_id AS tenantId, ${text} AS text
       FROM ${pending} AS p JOIN ${table} AS t ON t.rowid = p.${column} ORDER BY p.${column} LIMIT ?1`,
    ),
    index: sqlite.prepare<unknown, [number, string]>(`INSERT INTO ${table}_fts (rowid, terms) VALUES (?1, ?2)`),
    done: sqlite.prepare<unknown, [number]>(`DELETE FROM ${pending} WHERE ${column} = ?1`),
  });
  const queues = [
    queue("chat_messages", "chat_messages_fts_pending", "message_rowid", "t.text"),
    queue("leads", "leads_fts_pending", "lead_rowid", "t.name || ' ' || t.email || ' ' || t.phone"),
  ];
  // A row is queued while it exists (its delete trigger takes it off), so the join finds each one.
  const indexPending = sqlite.transaction((limit: number) => {
    let indexed = 0;
    for (const { read, index, done } of queues) {
      for (const row of read.all(limit - indexed)) {
        index.run(row.rowid, indexedTerms(row.tenantId, row.text));
        done.run(row.rowid);
        indexed++;
      }
    }
    return indexed;
  });
  const ops = sqliteOps(sqlite, INBOX_OPS);
  const walk = sqliteSearchWalk(sqlite);
  return {
    ...ops,
    // The newest matches first, stopping early; the sort of every match when that walk would cost more.
    searchSessionIds: (tenantId, match, beforeId, limit) =>
      walk(tenantId, match, beforeId, limit) ?? ops.searchSessionIds(tenantId, match, beforeId, limit),
    // BEGIN IMMEDIATE, as every write transaction (a SAVEPOINT inside an open one).
    indexPending: (limit) => indexPending.immediate(limit),
  };
}
