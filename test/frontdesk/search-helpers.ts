import { expect } from "bun:test";
import { seedTenant, type TestContext, type TestDeps, testSql, type TestSql } from "../helpers.ts";
import { frontDesk, openWidgetSession, say } from "./desk-helpers.ts";
import { messageRow, startSession } from "../../src/chat/sessions.ts";
import { PG_MIGRATIONS } from "../../src/db/postgres/migrations.ts";
import { tenantKey } from "../../src/db/search-terms.ts";
import { catchUpSearchIndex } from "../../src/frontdesk/search-index.ts";

/** A desk whose visitors each start a chat with one text, and Sam's search of them (session ids, newest first). */
export async function searchableDesk(context: TestContext) {
  const desk = await frontDesk(context);
  const chat = async (text: string) => {
    context.clock.advance(1000);
    const visitor = await openWidgetSession(context, desk.tenant.id);
    await say(context, visitor.access_token, desk.tenant.id, text, { session_id: visitor.session_id });
    return visitor.session_id;
  };
  const found = async (query: string) => {
    const response = await context.request("GET", `/api/v1/inbox/search?q=${encodeURIComponent(query)}`, {
      headers: desk.sam.headers,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Array<{ session_id: string }> }).data.map((row) => row.session_id);
  };
  return { desk, chat, found };
}

/** The statements of the PostgreSQL migration whose tag ends with `suffix`. */
export const pgMigrationStatements = (suffix: string): string[] =>
  (PG_MIGRATIONS.find((m) => m.tag.endsWith(suffix))?.sql ?? "").split("--> statement-breakpoint");

/** The words of every message's terms in chat_message_terms, without the tenant key, sorted. */
export async function messageTermWords(sql: TestSql, key: string): Promise<string[]> {
  return (await sql.all<{ terms: string[] }>("SELECT tsvector_to_array(terms) AS terms FROM chat_message_terms"))
    .flatMap((row) => row.terms)
    .map((term) => term.slice(key.length))
    .sort();
}

/**
 * A database as it stood before a search migration: `parley_search_terms` as the migration
 * `before` made it, the function `dropped` gone, and a chat (one visitor message) and its lead
 * indexed by that old function.
 */
export async function searchAsBefore(
  deps: TestDeps,
  shape: { before: string; dropped: string; message: string; leadName: string },
) {
  const sql = await testSql(deps);
  const { tenant } = await seedTenant(deps, "Old");
  const oldFunction = pgMigrationStatements(shape.before).find((text) => /FUNCTION "parley_search_terms"/.test(text));
  await sql.run((oldFunction ?? "").replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"));
  await sql.run(`DROP FUNCTION ${shape.dropped}(text)`);
  await sql.run("REINDEX INDEX leads_search_idx");
  const session = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" });
  await deps.store.chatSessions.insertMessage(messageRow(deps, session, { role: "visitor", text: shape.message }));
  await catchUpSearchIndex(deps);
  await sql.run(
    `INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at)
     VALUES ('lead_01jz4k8m2q9wz7xr3t5v6b8c0d', ?, 'bot_x', ?, ?, '+34600000000', 'jn@example.com', '', 'widget', 1, 1)`,
    tenant.id,
    session.id,
    shape.leadName,
  );
  const key = tenantKey(tenant.id);
  return { sql, tenant, session, key, messageTerms: () => messageTermWords(sql, key) };
}
