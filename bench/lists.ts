/**
 * List endpoints at 1M rows against the same at 1k rows (DESIGN §8). Not a test: it
 * measures and prints a table.
 *
 *   npx bun bench/lists.ts
 *
 * Env: BENCH_LIST_ROWS (1000000) rows of the big tenant, BENCH_LIST_SMALL_ROWS (1000) of the
 * small one, BENCH_LIST_RUNS (30) timed calls per measure.
 *
 * One file database, two tenants: the big one holds BENCH_LIST_ROWS webhook deliveries and as
 * many chat sessions, the small one BENCH_LIST_SMALL_ROWS of each, both in the same proportions
 * (mostly succeeded / closed; 50 dead deliveries and 50 hand-off sessions spread over the
 * tenant, which is what an operator filters for). Each tenant's newest BENCH_LIST_SMALL_ROWS
 * rows fall in the last hour; the big tenant's older rows lie 31–400 days back, so the
 * analytics summary's default range (the last 30 days) holds the same rows in both and any
 * difference is a scan of the tenant's history. Each measure is the domain verb behind the
 * endpoint (listDeliveries, listSessions, summarizeAnalytics), first page of 50 (the summary:
 * its one answer), median of BENCH_LIST_RUNS calls after warm-up. Budget (DESIGN §8): the 1M
 * answer within 2× of the 1k answer.
 */
import type { DeliveryFilter } from "../src/db/store-webhooks.ts";
import { newId } from "../src/lib/ids.ts";
import { summarizeAnalytics } from "../src/analytics/summary.ts";
import { listSessions } from "../src/chat/sessions.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { listDeliveries } from "../src/webhooks/deliveries.ts";
import { createRule } from "../src/webhooks/rules.ts";
import { createBenchDeps, envInt, formatMs, markdownTable, medianCallMs, type BenchDeps } from "./lib.ts";

const BIG_ROWS = envInt("BENCH_LIST_ROWS", 1_000_000);
const SMALL_ROWS = envInt("BENCH_LIST_SMALL_ROWS", 1_000);
const RUNS = envInt("BENCH_LIST_RUNS", 30);
const time = <T>(call: () => Promise<T>, check: (result: T) => void) => medianCallMs(call, check, RUNS);
/** The rare rows a filter looks for, spread evenly over each tenant. */
const RARE_ROWS = 50;
const PAGE = 50;
const EVENTS = ["lead.created", "appointment.booked", "conversation.handoff"] as const;
const BUDGET_RATIO = 2;
/** Rows per write transaction while filling. */
const FILL_BATCH = 50_000;
const DAY_MS = 86_400_000;

interface Seeded {
  tenantId: string;
  ruleIds: [string, string];
}

/** `rows` deliveries (one event per 4) and `rows` chat sessions for a new tenant, by raw SQL. */
async function seed(deps: BenchDeps, name: string, rows: number): Promise<Seeded> {
  const tenant = await createTenant(deps, { name });
  const rule = (n: number) =>
    createRule(deps, tenant.id, {
      name: `rule ${n}`,
      event: "lead.created",
      url: `https://hooks.example.com/${n}`,
      secret: "bench-secret-0123456789abcdef",
      active: true,
    });
  const ruleIds: [string, string] = [(await rule(1)).rule_id, (await rule(2)).rule_id];
  const chatbotId = deps.sqlite
    .prepare<{ id: string }, [string]>("SELECT id FROM chatbots WHERE tenant_id = ?")
    .get(tenant.id)?.id;
  if (!chatbotId) throw new Error("the tenant has no chatbot");
  const insertEvent = deps.sqlite.prepare(
    "INSERT INTO events (id, tenant_id, event, data, confidence, occurred_at) VALUES (?, ?, ?, '{}', 1, ?)",
  );
  const insertDelivery = deps.sqlite.prepare(
    "INSERT INTO deliveries (id, tenant_id, event_id, rule_id, event, url, status, attempts, cycle, next_attempt_at, created_at, updated_at, completed_at) VALUES (?, ?, ?, ?, ?, 'https://hooks.example.com/1', ?, 1, 1, NULL, ?, ?, ?)",
  );
  const insertSession = deps.sqlite.prepare(
    "INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, created_at, updated_at, closed_at) VALUES (?, ?, ?, 'widget', ?, '{}', 2, ?, ?, ?)",
  );
  const rareEvery = Math.max(1, Math.floor(rows / RARE_ROWS));
  const now = Date.now();
  // The newest SMALL_ROWS rows a second apart up to now; the older ones spread 400 → 31 days back.
  const recentFrom = Math.max(0, rows - SMALL_ROWS);
  const historyStep = (369 * DAY_MS) / Math.max(1, recentFrom);
  const timeOf = (i: number) =>
    i >= recentFrom ? now - (rows - i) * 1_000 : Math.floor(now - 400 * DAY_MS + i * historyStep);
  let eventId = "";
  for (let done = 0; done < rows; done += FILL_BATCH) {
    deps.sqlite.transaction(() => {
      for (let i = done; i < Math.min(rows, done + FILL_BATCH); i++) {
        const at = timeOf(i);
        const event = EVENTS[i % EVENTS.length] as string;
        if (i % 4 === 0) {
          eventId = newId("evt", at);
          insertEvent.run(eventId, tenant.id, event, at);
        }
        const rare = i % rareEvery === rareEvery - 1;
        insertDelivery.run(
          newId("wh", at),
          tenant.id,
          eventId,
          ruleIds[i % 2] as string,
          event,
          rare ? "dead" : "succeeded",
          at,
          at,
          at,
        );
        insertSession.run(
          newId("ses", at),
          tenant.id,
          chatbotId,
          rare ? "handoff" : "closed",
          at,
          at,
          rare ? null : at,
        );
      }
    })();
  }
  return { tenantId: tenant.id, ruleIds };
}

const pageOf = (expectRows: number) => (page: { data: unknown[] }) => {
  if (page.data.length !== expectRows)
    throw new Error(`expected ${expectRows} rows on the first page, got ${page.data.length}`);
};

const verdict = (ok: boolean) => (ok ? "✅ met" : "❌ missed");

async function main(): Promise<void> {
  console.error(
    `bench: ${BIG_ROWS} vs ${SMALL_ROWS} deliveries and sessions per tenant, ${RUNS} runs, Bun ${Bun.version}`,
  );
  const deps = createBenchDeps();
  try {
    const filled = performance.now();
    const big = await seed(deps, "Big", BIG_ROWS);
    const small = await seed(deps, "Small", SMALL_ROWS);
    deps.sqlite.exec("ANALYZE");
    console.error(`filled in ${((performance.now() - filled) / 1000).toFixed(1)} s`);

    const rareOnPage = Math.min(PAGE, RARE_ROWS);
    const deliveryCases: [string, (seeded: Seeded) => DeliveryFilter, number][] = [
      ["GET /api/v1/webhooks/deliveries (no filter)", () => ({}), PAGE],
      ["GET /api/v1/webhooks/deliveries?status=dead", () => ({ status: "dead" }), rareOnPage],
      ["GET /api/v1/webhooks/deliveries?event=appointment.booked", () => ({ event: "appointment.booked" }), PAGE],
      ["GET /api/v1/webhooks/deliveries?rule_id=…", (seeded) => ({ ruleId: seeded.ruleIds[1] }), PAGE],
    ];
    const rows: string[][] = [];
    const addRow = (label: string, bigMs: number, smallMs: number) => {
      const ratio = bigMs / smallMs;
      rows.push([
        label,
        formatMs(bigMs),
        formatMs(smallMs),
        `${ratio.toFixed(2)}×`,
        `≤ ${BUDGET_RATIO}×`,
        verdict(ratio <= BUDGET_RATIO),
      ]);
      console.error(`${label}: ${formatMs(bigMs)} vs ${formatMs(smallMs)}`);
    };
    for (const [label, filterOf, expectRows] of deliveryCases) {
      const run = (seeded: Seeded) => () => listDeliveries(deps, seeded.tenantId, filterOf(seeded), { limit: PAGE });
      // Alternate big and small twice, keep each side's better median: a noisy moment on a
      // shared machine then cannot land on one side only.
      const bigMs = Math.min(await time(run(big), pageOf(expectRows)), await time(run(big), pageOf(expectRows)));
      const smallMs = Math.min(await time(run(small), pageOf(expectRows)), await time(run(small), pageOf(expectRows)));
      addRow(label, bigMs, smallMs);
    }
    const sessionCases: [string, { status?: "handoff" | "closed" }, number][] = [
      ["GET /api/v1/sessions (no filter)", {}, PAGE],
      ["GET /api/v1/sessions?status=handoff", { status: "handoff" }, rareOnPage],
    ];
    for (const [label, filter, expectRows] of sessionCases) {
      const run = (seeded: Seeded) => () => listSessions(deps, seeded.tenantId, filter, { limit: PAGE });
      const bigMs = Math.min(await time(run(big), pageOf(expectRows)), await time(run(big), pageOf(expectRows)));
      const smallMs = Math.min(await time(run(small), pageOf(expectRows)), await time(run(small), pageOf(expectRows)));
      addRow(label, bigMs, smallMs);
    }
    {
      const run = (seeded: Seeded) => () => summarizeAnalytics(deps, seeded.tenantId, {});
      const sameRecentRows = (summary: { totals: { conversations: number } }) => {
        if (summary.totals.conversations !== SMALL_ROWS)
          throw new Error(
            `expected ${SMALL_ROWS} conversations in the last 30 days, got ${summary.totals.conversations}`,
          );
      };
      const bigMs = Math.min(await time(run(big), sameRecentRows), await time(run(big), sameRecentRows));
      const smallMs = Math.min(await time(run(small), sameRecentRows), await time(run(small), sameRecentRows));
      addRow("GET /api/v1/analytics/summary (last 30 days: the same 1k recent rows in both)", bigMs, smallMs);
    }
    const bigLabel = `${BIG_ROWS.toLocaleString("en-US")} rows`;
    const smallLabel = `${SMALL_ROWS.toLocaleString("en-US")} rows (same run)`;
    console.log(
      markdownTable(
        ["first page of 50 (domain verb behind the endpoint)", bigLabel, smallLabel, "ratio", "budget", "verdict"],
        rows,
      ),
    );
  } finally {
    deps.dispose();
  }
}

await main();
process.exit(0);
