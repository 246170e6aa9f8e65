import type { Deps } from "../deps.ts";

/** Rows (messages and leads) indexed per transaction: a write transaction of a few tens of milliseconds at most. */
export const INDEX_BATCH = 5_000;

/**
 * Brings the search index up to date with the messages and leads written since the last catch-up
 * (both stores queue them; see InboxQueries.indexPending), a batch per transaction so a long backlog
 * never holds the write lock for long. Run by housekeeping and before each search, so a search
 * finds every message written before it. Answers how many were indexed.
 */
export async function catchUpSearchIndex(deps: Pick<Deps, "store">): Promise<number> {
  let total = 0;
  for (;;) {
    const indexed = await deps.store.inbox.indexPending(INDEX_BATCH);
    total += indexed;
    if (indexed < INDEX_BATCH) return total;
  }
}
