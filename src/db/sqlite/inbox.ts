import type { Database } from "bun:sqlite";
import { indexedTerms } from "../search-terms.ts";
import { INBOX_OPS } from "../sql/inbox.ts";
import type { InboxQueries } from "../store-inbox.ts";
import type { SyncOf } from "./gate.ts";
import type { SearchVocabulary } from "./search-vocabulary.ts";
import { sqliteSearchWalk } from "./search-walk.ts";
import { sqliteOps } from "./statements.ts";

interface Queued {
  rowid: number;
  tenantId: string;
  text: string;
}

/**
 * The inbox on SQLite: the shared statements, search's newest-first walk over its prefixes written
 * as words, and the search index's catch-up. The FTS5 tables are contentless and hold
 * tenant-scoped terms made here (migration 0018 queues the rows by trigger, and deletes their
 * terms by rowid); their words go into the vocabulary in the same transaction.
 */
export function sqliteInbox(sqlite: Database, vocabulary: SearchVocabulary): SyncOf<InboxQueries> {
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
    const words = new Set<string>();
    for (const { read, index, done } of queues) {
      for (const row of read.all(limit - indexed)) {
        const terms = indexedTerms(row.tenantId, row.text);
        index.run(row.rowid, terms);
        for (const term of terms.split(" ")) words.add(term);
        done.run(row.rowid);
        indexed++;
      }
    }
    vocabulary.remember(words);
    vocabulary.forgetReplaced();
    return indexed;
  });
  const ops = sqliteOps(sqlite, INBOX_OPS);
  const walk = sqliteSearchWalk(sqlite);
  return {
    ...ops,
    // The newest matches first, stopping early; the sort of every match when that walk would cost more.
    searchSessionIds: (tenantId, match, beforeId, limit) => {
      const words = vocabulary.expand(match);
      return walk(tenantId, words, beforeId, limit) ?? ops.searchSessionIds(tenantId, words, beforeId, limit);
    },
    // BEGIN IMMEDIATE, as every write transaction (a SAVEPOINT inside an open one).
    indexPending: (limit) => indexPending.immediate(limit),
  };
}
