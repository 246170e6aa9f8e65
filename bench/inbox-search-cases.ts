// The shapes of bench/inbox-search.ts, measured the same way on both stores.
import { listInbox } from "../src/frontdesk/inbox.ts";
import { searchChats } from "../src/frontdesk/search-chats.ts";
import type { Deps } from "../src/deps.ts";
import { envInt, formatMs, medianCallMs } from "./lib.ts";

export const BIG = envInt("BENCH_SEARCH_MESSAGES", 1_000_000);
export const SMALL = envInt("BENCH_SEARCH_SMALL_MESSAGES", 1_000);
export const RUNS = envInt("BENCH_LIST_RUNS", 30);
export const PER_SESSION = 10;
/** Chats with the rare word, and leads with the rare name, in each tenant. */
export const RARE = 20;
const PAGE = 20;
const BUDGET_RATIO = 2;
/** A word in every visitor message of one tenant only. */
export const OWN_WORD = { big: "valet", small: "parking" };

const time = <T>(call: () => Promise<T>, check: (result: T) => void) => medianCallMs(call, check, RUNS);
const rowsOf = (expected: number) => (page: { data: unknown[] }) => {
  if (page.data.length !== expected)
    throw new Error(`expected ${expected} chats on the first page, got ${page.data.length}`);
};

/**
 * The first page of each shape for the big tenant and the small one beside it, as table rows:
 * the inbox, a rare word, a lead's name, the tenant's own word in every chat, and a word in every
 * chat of the other tenant only (none of its own: it must not pay for the other's matches).
 */
export async function measureCases(
  deps: Pick<Deps, "store" | "clock">,
  big: string,
  small: string,
  store = "SQLite",
): Promise<string[][]> {
  const search = (query: string, expected: number) => (tenantId: string) => ({
    call: () => searchChats(deps, tenantId, null, query, { limit: PAGE }),
    expected,
  });
  const cases: Array<[string, (tenantId: string) => { call: () => Promise<{ data: unknown[] }>; expected: number }]> = [
    [
      "GET /api/v1/inbox (20 hand-offs per tenant)",
      (tenantId) => ({
        call: () => listInbox(deps, tenantId, null, { status: "handoff" }, { limit: PAGE }),
        expected: PAGE,
      }),
    ],
    ["GET /api/v1/inbox/search?q=zebra (a rare word: 20 chats per tenant)", search("zebra", PAGE)],
    ["GET /api/v1/inbox/search?q=quintana (a lead's name: 20 per tenant)", search("quintana", PAGE)],
    ["GET /api/v1/inbox/search?q=hours (its own word in every chat: half its messages)", search("hours", PAGE)],
  ];
  const rows: string[][] = [];
  const row = (label: string, bigMs: number, smallMs: number) => {
    const ratio = bigMs / smallMs;
    rows.push([
      `${store}: ${label}`,
      formatMs(bigMs),
      formatMs(smallMs),
      `${ratio.toFixed(2)}×`,
      `≤ ${BUDGET_RATIO}×`,
      ratio <= BUDGET_RATIO ? "✅ met" : "❌ missed",
    ]);
    console.error(`${store}: ${label}: ${formatMs(bigMs)} vs ${formatMs(smallMs)}`);
  };
  const best = async (given: { call: () => Promise<{ data: unknown[] }>; expected: number }) =>
    Math.min(await time(given.call, rowsOf(given.expected)), await time(given.call, rowsOf(given.expected)));
  for (const [label, shape] of cases) row(label, await best(shape(big)), await best(shape(small)));
  // The other tenant's word: the small tenant's search beside the big tenant's 500k, against the reverse.
  row(
    `GET /api/v1/inbox/search?q=${OWN_WORD.big} by the small tenant (in every chat of the big one, none of its own) ÷ q=${OWN_WORD.small} by the big one`,
    await best({ call: () => searchChats(deps, small, null, OWN_WORD.big, { limit: PAGE }), expected: 0 }),
    await best({ call: () => searchChats(deps, big, null, OWN_WORD.small, { limit: PAGE }), expected: 0 }),
  );
  return rows;
}
