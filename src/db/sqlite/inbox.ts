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
 * Search and the index's catch-up: the contentless FTS5 tables hold terms made here from rows
 * queued by trigger (migration 0018); their words go into the vocabulary in the same transaction.
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
  // A row is queued only while it exists, so the join finds each one.
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
    searchSessionIds: (tenantId, match, beforeId, limit) => {
      const words = vocabulary.expand(match);
      return walk(tenantId, words, beforeId, limit) ?? ops.searchSessionIds(tenantId, words, beforeId, limit);
    },
    indexPending: (limit) => indexPending.immediate(limit),
  };
}
