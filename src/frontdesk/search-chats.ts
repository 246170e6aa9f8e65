import type { Deps } from "../deps.ts";
import type { ChatSessionRow as SessionRow } from "../db/store.ts";
import { AppError } from "../lib/app-error.ts";
import type { Page } from "../lib/page.ts";
import { describeChats, type InboxChat } from "./inbox-view.ts";
import { tenantKey, textWords } from "../db/search-terms.ts";
import { catchUpSearchIndex } from "./search-index.ts";

export const SEARCH_QUERY_MAX = 200;
const MAX_WORDS = 8;

/** The words of a search, as both stores' indexes split text: runs of letters and digits. */
export function searchWords(query: string): string[] {
  return [...new Set(textWords(query))].slice(0, MAX_WORDS);
}

/**
 * The full-text query for the store's index, every word a prefix of the tenant's terms (its key,
 * then the word: src/db/search-terms.ts) and all required. Each word is only letters and digits,
 * and still quoted: an FTS5 keyword (AND, NEAR) or a tsquery operator in it stays a word.
 */
export function fullTextQuery(kind: "sqlite" | "postgres", tenantId: string, words: readonly string[]): string {
  const key = tenantKey(tenantId);
  return kind === "sqlite"
    ? words.map((word) => `"${key}${word}"*`).join(" AND ")
    : words.map((word) => `'${key}${word}':*`).join(" & ");
}

/**
 * Past conversations of the tenant (any status) whose visitor or operator messages, or whose
 * lead's name, e-mail or phone, contain every word (as a prefix), newest first. Served by the
 * full-text indexes (FTS5 on SQLite, GIN on PostgreSQL); a page stops at the newest matches
 * (InboxQueries.searchSessionIds), never walks the tenant's every chat.
 */
export async function searchChats(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
  readerId: string | null,
  query: string,
  page: { limit: number; cursor?: string },
): Promise<Page<InboxChat>> {
  const words = searchWords(query);
  if (words.length === 0)
    throw new AppError("validation_failed", 422, "q: needs a word (letters or digits)", [
      { field: "q", message: "needs a word (letters or digits)" },
    ]);
  await catchUpSearchIndex(deps);
  const ids = await deps.store.inbox.searchSessionIds(
    tenantId,
    fullTextQuery(deps.store.kind, tenantId, words),
    page.cursor ?? null,
    page.limit + 1,
  );
  const shownIds = ids.slice(0, page.limit);
  // One statement for the page's sessions, put back in the search's order.
  const byId = new Map((await deps.store.privacy.findSessions(tenantId, "id", shownIds)).map((row) => [row.id, row]));
  const sessions = shownIds.map((id) => byId.get(id)).filter((row): row is SessionRow => row !== undefined);
  const data = await describeChats(deps, tenantId, readerId, sessions);
  return { data, next_cursor: ids.length > page.limit ? (shownIds.at(-1) ?? null) : null };
}
