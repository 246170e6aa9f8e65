import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eraseLead } from "../../src/chat/erase-person.ts";
import { insertMessage, startSession } from "../../src/chat/sessions.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql, type TestDeps } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";

const EMAIL = "secret.person@example.com";

let dir: string;
let file: string;
/** The store under test (SQLite in memory, or PostgreSQL under PARLEY_TEST_DB). */
let deps: TestDeps;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parley-erase-"));
  file = join(dir, "erase.db");
  deps = buildDeps();
});
afterEach(() => {
  closeDeps(deps);
  rmSync(dir, { recursive: true, force: true });
});

const fileContains = (needle: string) =>
  ["", "-wal"].some((suffix) => {
    try {
      return readFileSync(file + suffix).includes(Buffer.from(needle));
    } catch {
      return false;
    }
  });

describe("erasure and the database file", () => {
  // About SQLite's own file (secure_delete, the WAL): PostgreSQL's storage is not looked at here.
  test.skipIf(Boolean(testPostgresUrl()))(
    "the erased e-mail is not left readable in the file's free pages (secure_delete)",
    async () => {
      closeDeps(deps);
      deps = buildDeps({}, {}, {}, file);
      expect(deps.sqlite.prepare<{ secure_delete: number }, []>("PRAGMA secure_delete").get()?.secure_delete).toBe(1);
      const tenant = await createTenant(deps, { name: "Clinic" });
      const session = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" });
      // Enough transcript to fill pages of its own, as a long conversation would.
      for (let index = 0; index < 40; index++)
        await insertMessage(deps, deps.store, session, {
          role: "visitor",
          text: `message ${index}: write to ${EMAIL} ${"x".repeat(200)}`,
        });
      deps.sqlite
        .prepare(
          "INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES ('lead_0000000000secret', ?, ?, ?, 'Secret Person', '+14155550111', ?, 'x', 'widget', 1, 0)",
        )
        .run(tenant.id, tenant.chatbotId, session.id, EMAIL);
      deps.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      expect(fileContains(EMAIL)).toBe(true);

      expect(await eraseLead(deps, tenant.id, "lead_0000000000secret")).toMatchObject({
        leads: 1,
        sessions: 1,
        messages: 40,
      });
      deps.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      expect(fileContains(EMAIL)).toBe(false);
    },
  );

  test("a lead's phone also finds the visitor's WhatsApp sessions (their number without the +)", async () => {
    const tenant = await createTenant(deps, { name: "Garage" });
    const web = await startSession(deps, deps.store, { tenantId: tenant.id, channel: "widget" });
    const whatsapp = await startSession(deps, deps.store, {
      tenantId: tenant.id,
      channel: "whatsapp",
      visitorRef: "14155550111",
    });
    await insertMessage(deps, deps.store, whatsapp, { role: "visitor", text: "is my car ready?" });
    const neighbour = await startSession(deps, deps.store, {
      tenantId: tenant.id,
      channel: "whatsapp",
      visitorRef: "14155550999",
    });
    const sql = await testSql(deps);
    await sql.run(
      "INSERT INTO leads (id, tenant_id, chatbot_id, session_id, name, phone, email, interest, source, confidence, captured_at) VALUES ('lead_000000000000carla', ?, ?, ?, 'Carla', '+14155550111', 'carla@example.com', 'x', 'widget', 1, 0)",
      tenant.id,
      tenant.chatbotId,
      web.id,
    );
    expect(await eraseLead(deps, tenant.id, "lead_000000000000carla")).toMatchObject({
      leads: 1,
      sessions: 2,
      messages: 1,
    });
    const left = (await sql.all<{ id: string }>("SELECT id FROM chat_sessions WHERE tenant_id = ?", tenant.id)).map(
      (row) => row.id,
    );
    expect(left).toEqual([neighbour.id]);
  });
});
