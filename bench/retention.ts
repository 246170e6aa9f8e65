/**
 * Does the database stop growing under a steady load once retention is on? Two databases get
 * the same simulated traffic, day by day, under an injected clock: one with retention
 * (PARLEY_EVENT_RETENTION=30d, the tenant's chat_days and analytics_days 30), one, the
 * baseline, that keeps everything. Each simulated day: BENCH_SESSIONS_PER_DAY chat sessions
 * of BENCH_MESSAGES_PER_SESSION messages, a session.started and a lead.created event per
 * session (each delivered to a webhook rule by the real scheduler with a sender that answers
 * 200), widget telemetry; then the scheduler's housekeeping runs (the retention sweep until
 * done, a WAL checkpoint). The file size is printed after 1, 2 and 3 simulated months.
 *
 *   npx bun bench/retention.ts          # about a minute on 2 cores
 *   BENCH_SESSIONS_PER_DAY=50 npx bun bench/retention.ts   # quick look
 */
import { statSync } from "node:fs";
import { recordAnalyticsEvents } from "../src/analytics/record-events.ts";
import { updateBotConfig } from "../src/chat/bot-settings.ts";
import { insertMessage, startSession } from "../src/chat/sessions.ts";
import { createFakeClock } from "../src/lib/clock.ts";
import { sweepRetention } from "../src/scheduler/retention.ts";
import { DeliveryScheduler } from "../src/scheduler/scheduler.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { enqueueEvent } from "../src/webhooks/emit-event.ts";
import { createRule } from "../src/webhooks/rules.ts";
import { createBenchDeps, markdownTable } from "./lib.ts";

const DAY = 86_400_000;
const SESSIONS_PER_DAY = Number(process.env.BENCH_SESSIONS_PER_DAY ?? 200);
const MESSAGES_PER_SESSION = Number(process.env.BENCH_MESSAGES_PER_SESSION ?? 6);
const CHECKPOINT_DAYS = [30, 60, 90];

interface Simulation {
  label: string;
  sizes: number[];
  rows: Record<string, number>;
}

async function simulate(label: string, retention: boolean): Promise<Simulation> {
  const clock = createFakeClock(Date.UTC(2026, 0, 1));
  const base = createBenchDeps({ PARLEY_EVENT_RETENTION: retention ? "30d" : "3650d" });
  const deps = { ...base, clock };
  const tenant = await createTenant(deps, { name: "Steady clinic", sector: "dental-clinic" });
  if (retention) await updateBotConfig(deps, tenant.id, { retention: { chat_days: 30, analytics_days: 30 } });
  for (const event of ["session.started", "lead.created"] as const) {
    await createRule(deps, tenant.id, {
      name: event,
      event,
      url: "https://crm.example/hook",
      secret: "bench-secret-0123456789",
      active: true,
    });
  }
  const scheduler = new DeliveryScheduler(deps, {
    send: async () => ({ ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "ok" }),
  });
  const sizes: number[] = [];
  const start = clock.now();
  for (let day = 1; day <= CHECKPOINT_DAYS.at(-1)!; day++) {
    for (let index = 0; index < SESSIONS_PER_DAY; index++) {
      clock.set(start + (day - 1) * DAY + Math.floor((index * DAY) / SESSIONS_PER_DAY));
      const session = await startSession(deps, deps.store, {
        tenantId: tenant.id,
        channel: "widget",
        origin: "https://clinic.example",
      });
      await deps.store.transaction(async (tx) => {
        for (let turn = 0; turn < MESSAGES_PER_SESSION / 2; turn++) {
          await insertMessage(deps, tx, session, {
            role: "visitor",
            text: `Visitor ${index} asks question ${turn}: do you do whitening on Saturdays, and what does it cost?`,
          });
          await insertMessage(deps, tx, session, {
            role: "bot",
            text: "Yes, Saturdays 9:00–13:00. Whitening starts at 250 EUR; shall I book you in?",
            quickReplies: ["Book", "Prices"],
          });
        }
        await enqueueEvent(deps, tx, {
          tenantId: tenant.id,
          event: "session.started",
          data: { session_id: session.id, channel: "widget" },
        });
        await enqueueEvent(deps, tx, {
          tenantId: tenant.id,
          event: "lead.created",
          data: {
            session_id: session.id,
            name: `Visitor ${index}`,
            email: `visitor${day}-${index}@example.com`,
            phone: "+14155550132",
          },
          confidence: 0.9,
        });
      });
      await recordAnalyticsEvents(deps, {
        tenantId: tenant.id,
        sessionId: session.id,
        events: [{ name: "widget_loaded" }, { name: "widget_opened" }, { name: "message_sent" }],
      });
    }
    await scheduler.runOnce();
    // The server's housekeeping, once a simulated day (it runs every 10 s for real).
    while (!(await sweepRetention(deps)).complete);
    deps.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    if (CHECKPOINT_DAYS.includes(day)) {
      sizes.push(statSync(deps.config.dbPath).size);
      process.stderr.write(`${label}: day ${day}\n`);
    }
  }
  const count = (table: string) =>
    deps.sqlite.prepare<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
  const rows = Object.fromEntries(
    ["chat_sessions", "chat_messages", "events", "deliveries", "delivery_attempts", "analytics_events"].map((table) => [
      table,
      count(table),
    ]),
  );
  base.dispose();
  return { label, sizes, rows };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const results = [await simulate("retention 30 d", true), await simulate("keep everything (baseline)", false)];
console.log(
  `\nSteady load: ${SESSIONS_PER_DAY} sessions/day × ${MESSAGES_PER_SESSION} messages, 2 events and 2 deliveries per session, 3 widget events per session.\n`,
);
console.log(
  markdownTable(
    ["database", ...CHECKPOINT_DAYS.map((day) => `size after day ${day}`), "growth day 30 → 90"],
    results.map((result) => [
      result.label,
      ...result.sizes.map(mib),
      `${(((result.sizes.at(-1) ?? 0) / (result.sizes[0] ?? 1) - 1) * 100).toFixed(0)} %`,
    ]),
  ),
);
console.log("");
console.log(
  markdownTable(
    ["database", ...Object.keys(results[0]?.rows ?? {}).map((table) => `${table} rows`)],
    results.map((result) => [result.label, ...Object.values(result.rows).map(String)]),
  ),
);
