/**
 * The front desk's inbox and search at 1M chat messages against the same at 1k (DESIGN §8's list
 * budget). Not a test: it measures and prints a table.
 *
 *   npx bun bench/inbox-search.ts
 *
 * Env: BENCH_SEARCH_MESSAGES (1000000) messages of the big tenant, BENCH_SEARCH_SMALL_MESSAGES
 * (1000) of the small one, BENCH_LIST_RUNS (30) timed calls per measure.
 *
 * One SQLite file, two tenants in the same proportions: sessions of 10 messages (visitor and bot
 * taking turns), 20 hand-off sessions each, and in each tenant 20 sessions where the visitor wrote
 * a rare word ("zebra") and 20 leads named "Quintana". Every visitor message says "hours", a word
 * that matches half of the tenant's messages, and a word of its own tenant only ("valet" in the
 * big one, "parking" in the small one). The messages go in by SQL (queued by the trigger, as a
 * chat turn does), then the catch-up indexes them (timed). Each measure is the domain verb behind
 * the endpoint, first page (20), median of the runs after warm-up, big and small alternated twice
 * keeping each side's better median. Then the same tenants on PostgreSQL (a throwaway cluster,
 * or BENCH_PG_URL; BENCH_PG=off skips it), filled by generate_series (bench/inbox-search-pg.ts).
 *
 * Then what the search index costs a chat message: a chat turn's writes (finishTurn: the
 * visitor's message, the bot's reply, the session and the usage counter) in group-commit
 * transactions of 32, on a fresh database, in alternating slices with the queue trigger and
 * without it (dropped and created again between slices): server CPU µs per turn
 * (process.cpuUsage, so time the machine spends elsewhere does not count), median of
 * BENCH_SEARCH_SLICES (6) slices each. BENCH_SEARCH_WRITE_ONLY=1 runs only this part.
 */
import { newId } from "../src/lib/ids.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { catchUpSearchIndex } from "../src/frontdesk/search-index.ts";
import { createBenchDeps, envInt, markdownTable, median, type BenchDeps } from "./lib.ts";
import { BIG, measureCases, OWN_WORD, PER_SESSION, RARE, SMALL, RUNS } from "./inbox-search-cases.ts";
import { messageRow, startSession } from "../src/chat/sessions.ts";
import { postgresRows } from "./inbox-search-pg.ts";

const FILL_BATCH = 50_000;
const SLICES = envInt("BENCH_SEARCH_SLICES", 6);
const TURNS_PER_SLICE = 6_400;
const GROUP = 32;

/** `messages` messages in sessions of PER_SESSION for a new tenant; answers its id. */
async function seed(deps: BenchDeps, name: string, messages: number, own: string): Promise<string> {
  const tenant = await createTenant(deps, { name });
  const chatbotId = deps.sqlite
    .prepare<{ id: string }, [string]>("SELECT id FROM chatbots WHERE tenant_id = ?")
    .get(tenant.id)?.id;
  if (!chatbotId) throw new Error("the tenant has no chatbot");
  const insertSession = deps.sqlite.prepare(
    "INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, created_at, updated_at) VALUES (?, ?, ?, 'widget', ?, '{}', ?, ?, ?)",
  );
  const insertMessage = deps.sqlite.prepare(
    "INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insertLead = deps.sqlite.prepare(
    "INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES (?, ?, ?, ?, ?, ?, ?, '', 'widget', 1, ?)",
  );
  const sessions = Math.max(1, Math.floor(messages / PER_SESSION));
  const rareEvery = Math.max(1, Math.floor(sessions / RARE));
  const start = Date.now() - sessions * 1_000;
  for (let done = 0; done < sessions; done += FILL_BATCH / PER_SESSION) {
    deps.sqlite.transaction(() => {
      for (let s = done; s < Math.min(sessions, done + FILL_BATCH / PER_SESSION); s++) {
        const at = start + s * 1_000;
        const sessionId = newId("ses", at);
        const rare = s % rareEvery === rareEvery - 1;
        insertSession.run(sessionId, tenant.id, chatbotId, rare ? "handoff" : "closed", PER_SESSION, at, at);
        for (let m = 0; m < PER_SESSION; m++) {
          const visitor = m % 2 === 0;
          const text = visitor
            ? `what are your opening hours on day ${s % 7}, ${own}${rare && m === 2 ? ", I saw a zebra" : ""}`
            : "We are open 9:00 to 17:00.";
          insertMessage.run(newId("msg", at + m), sessionId, tenant.id, visitor ? "visitor" : "bot", text, at + m);
        }
        const person = rare ? "Quintana" : `Person ${s}`;
        if (s % 5 === 0 || rare)
          insertLead.run(
            newId("lead", at),
            tenant.id,
            chatbotId,
            sessionId,
            person,
            `+4477009${String(s).padStart(5, "0")}`,
            `p${s}@example.com`,
            at,
          );
      }
    })();
  }
  return tenant.id;
}

/** Server CPU µs per chat turn's writes, with the search queue's trigger and without: alternating slices. */
async function writeCost(): Promise<{ withQueue: number[]; without: number[] }> {
  const deps = createBenchDeps();
  try {
    const tenant = await createTenant(deps, { name: "Writes" });
    const sessions = await Promise.all(
      Array.from({ length: GROUP }, () => startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" })),
    );
    const trigger = deps.sqlite
      .prepare<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'chat_messages_fts_queue'")
      .get()?.sql;
    if (!trigger) throw new Error("no queue trigger");
    let turn = 0;
    const slice = async (): Promise<number> => {
      const started = process.cpuUsage();
      for (let done = 0; done < TURNS_PER_SLICE; done += GROUP) {
        await Promise.all(
          sessions.map((session) =>
            deps.store.transaction((tx) =>
              tx.chatSessions.finishTurn({
                messages: [
                  messageRow(deps, session, {
                    role: "visitor",
                    text: `what are your opening hours on day ${turn++ % 7}?`,
                  }),
                  messageRow(deps, session, { role: "bot", text: "We are open 9:00 to 17:00." }),
                ],
                sessionId: session.id,
                update: {
                  status: null,
                  state: session.state,
                  messageCount: turn,
                  handoffReason: null,
                  updatedAt: Date.now(),
                },
              }),
            ),
          ),
        );
      }
      const used = process.cpuUsage(started);
      return (used.user + used.system) / TURNS_PER_SLICE;
    };
    await slice(); // warm-up
    const withQueue: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < SLICES; i++) {
      withQueue.push(await slice());
      deps.sqlite.exec("DROP TRIGGER chat_messages_fts_queue");
      without.push(await slice());
      deps.sqlite.exec(trigger);
      await catchUpSearchIndex(deps);
    }
    return { withQueue, without };
  } finally {
    deps.dispose();
  }
}

async function main(): Promise<void> {
  const writes = await writeCost();
  const writeRow = [
    "a chat turn's writes (finishTurn, groups of 32), server CPU per turn",
    `${median(writes.withQueue).toFixed(1)} µs with the queue trigger (${writes.withQueue.map((v) => v.toFixed(0)).join(", ")})`,
    `${median(writes.without).toFixed(1)} µs without (${writes.without.map((v) => v.toFixed(0)).join(", ")})`,
    `${(median(writes.withQueue) / median(writes.without)).toFixed(2)}×`,
    "—",
    "info",
  ];
  if (process.env.BENCH_SEARCH_WRITE_ONLY === "1") {
    console.log(markdownTable(["measure", "with", "without (same run)", "ratio", "budget", "verdict"], [writeRow]));
    return;
  }
  console.error(`bench: ${BIG} vs ${SMALL} messages per tenant, ${RUNS} runs, Bun ${Bun.version}`);
  const rows = [...(await sqliteRows()), writeRow, ...(await postgresRows())];
  console.log(
    markdownTable(
      [
        "first page of 20 (domain verb behind the endpoint)",
        `${BIG.toLocaleString("en-US")} messages`,
        `${SMALL.toLocaleString("en-US")} messages (same run)`,
        "ratio",
        "budget",
        "verdict",
      ],
      rows,
    ),
  );
}

/** The shapes on one SQLite file, and the catch-up of the index after the fill. */
async function sqliteRows(): Promise<string[][]> {
  const deps = createBenchDeps();
  try {
    let started = performance.now();
    const big = await seed(deps, "Big", BIG, OWN_WORD.big);
    const small = await seed(deps, "Small", SMALL, OWN_WORD.small);
    const filledS = (performance.now() - started) / 1000;
    started = performance.now();
    const indexed = await catchUpSearchIndex(deps);
    const indexS = (performance.now() - started) / 1000;
    deps.sqlite.exec("ANALYZE");
    console.error(`filled in ${filledS.toFixed(1)} s; indexed ${indexed} messages and leads in ${indexS.toFixed(1)} s`);
    const catchUp = `${indexed.toLocaleString("en-US")} messages and leads in ${indexS.toFixed(1)} s`;
    return [
      ...(await measureCases(deps, big, small)),
      ["SQLite: catch-up of the search index after the fill", catchUp, "—", "—", "—", "info"],
    ];
  } finally {
    deps.dispose();
  }
}

await main();
process.exit(0);
