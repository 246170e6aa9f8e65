// The PostgreSQL rows of bench/inbox-search.ts: the same two tenants and shapes, filled by
// generate_series (ids that sort by time as the server's do), then VACUUM ANALYZE.
import { SQL } from "bun";
import { openStore } from "../src/db/open-store.ts";
import { queueForSearch } from "../src/db/postgres/inbox.ts";
import { catchUpSearchIndex } from "../src/frontdesk/search-index.ts";
import { systemClock } from "../src/lib/clock.ts";
import { BIG, measureCases, OWN_WORD, PER_SESSION, RARE, SMALL } from "./inbox-search-cases.ts";
import { openBenchPostgres } from "./lib.ts";

/** `messages` messages in sessions of PER_SESSION for a new tenant, as the SQLite fill makes them. */
export async function seed(sql: SQL, tenantId: string, messages: number, own: string): Promise<void> {
  const sessions = Math.max(1, Math.floor(messages / PER_SESSION));
  const rareEvery = Math.max(1, Math.floor(sessions / RARE));
  const bot = `bot_${tenantId.slice(4)}`;
  const session = `'ses_' || lpad(s::text, 12, '0') || '${tenantId.slice(4)}'`;
  const rare = `s % ${rareEvery} = ${rareEvery - 1}`;
  await sql.unsafe("INSERT INTO tenants (id, name, created_at, updated_at) VALUES ($1, $1, 1, 1)", [tenantId]);
  await sql.unsafe("INSERT INTO chatbots (id, tenant_id, name, created_at, updated_at) VALUES ($1, $2, 'Bot', 1, 1)", [
    bot,
    tenantId,
  ]);
  await sql.unsafe(
    `INSERT INTO chat_sessions (id, tenant_id, chatbot_id, channel, status, state, message_count, created_at, updated_at)
     SELECT ${session}, $1, $2, 'widget', CASE WHEN ${rare} THEN 'handoff' ELSE 'closed' END, '{}', ${PER_SESSION}, s, s
     FROM generate_series(0, ${sessions - 1}) AS s`,
    [tenantId, bot],
  );
  await sql.unsafe(
    `INSERT INTO chat_messages (id, session_id, tenant_id, role, text, created_at)
     SELECT 'msg_' || lpad(s::text, 12, '0') || lpad(m::text, 2, '0') || '${tenantId.slice(4)}', ${session}, $1,
       CASE WHEN m % 2 = 0 THEN 'visitor' ELSE 'bot' END,
       CASE WHEN m % 2 = 1 THEN 'We are open 9:00 to 17:00.'
         ELSE 'what are your opening hours on day ' || (s % 7) || ', ${own}' || CASE WHEN ${rare} AND m = 2 THEN ', I saw a zebra' ELSE '' END END,
       s
     FROM generate_series(0, ${sessions - 1}) AS s, generate_series(0, ${PER_SESSION - 1}) AS m`,
    [tenantId],
  );
  await sql.unsafe(
    `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
     SELECT 'lead_' || lpad(s::text, 12, '0') || '${tenantId.slice(4)}', $1, $2, ${session},
       CASE WHEN ${rare} THEN 'Quintana' ELSE 'Person ' || s END, '+4477009' || lpad(s::text, 5, '0'), 'p' || s || '@example.com', '', 'widget', 1, s
     FROM generate_series(0, ${sessions - 1}) AS s WHERE s % 5 = 0 OR ${rare}`,
    [tenantId, bot],
  );
}

/** The shapes' rows on PostgreSQL; none when BENCH_PG=off or no server is found. */
export async function postgresRows(): Promise<string[][]> {
  const pg = await openBenchPostgres();
  if (!pg) return [];
  const url = await pg.createDatabase();
  const opened = openStore(url);
  const sql = new SQL({ url, max: 1 });
  try {
    await opened.migrate(Date.now());
    const started = performance.now();
    await seed(sql, "ten_01bigtenant", BIG, OWN_WORD.big);
    await seed(sql, "ten_01smalltenant", SMALL, OWN_WORD.small);
    await sql.unsafe(queueForSearch("chat_messages")); // queued, as a chat turn's statement queues its own
    // As autovacuum leaves a table in use: the GIN indexes' pending lists merged, statistics taken.
    await sql.unsafe("VACUUM ANALYZE");
    console.error(`${pg.description}: filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // The fill's queued messages: their terms now.
    const indexing = performance.now();
    const indexed = await catchUpSearchIndex({ store: opened.store });
    const indexS = (performance.now() - indexing) / 1000;
    await sql.unsafe("VACUUM ANALYZE chat_message_terms");
    const catchUp = `${indexed.toLocaleString("en-US")} messages in ${indexS.toFixed(1)} s`;
    const rows = await measureCases(
      { store: opened.store, clock: systemClock },
      "ten_01bigtenant",
      "ten_01smalltenant",
      "PostgreSQL",
    );
    return [...rows, ["PostgreSQL: catch-up of the search index after the fill", catchUp, "—", "—", "—", "info"]];
  } finally {
    await sql.close();
    await opened.close();
    await pg.dropDatabase(url);
    await pg.stop();
  }
}
