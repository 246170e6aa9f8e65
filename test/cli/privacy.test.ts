import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { insertMessage, startSession } from "../../src/chat/sessions.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps } from "../helpers.ts";
import { cli } from "./cli-helpers.ts";

// The CLI runs over a SQLite file here in both runs; test/cli/postgres.test.ts runs the same
// commands against a PostgreSQL database.
const dir = mkdtempSync(join(tmpdir(), "parley-cli-privacy-"));
const db = join(dir, "privacy.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let tenantId: string;
let otherTenantId: string;
let leadSession: string;
let strangerSession: string;

beforeAll(async () => {
  const deps = buildDeps({}, {}, {}, db);
  tenantId = (await createTenant(deps, { name: "Clinic" })).id;
  otherTenantId = (await createTenant(deps, { name: "Other" })).id;
  const session = await startSession(deps, deps.store, { tenantId, channel: "widget" });
  await insertMessage(deps, deps.store, session, { role: "visitor", text: "I'm Ana, ana@example.com" });
  leadSession = session.id;
  await deps.store.captures.insertLead({
    id: "lead_00000000000000ana",
    tenantId,
    chatbotId: "bot_x",
    sessionId: session.id,
    name: "Ana",
    phone: "+14155550132",
    email: "ana@example.com",
    interest: "x",
    source: "widget",
    confidence: 1,
    capturedAt: 0,
  });
  const stranger = await startSession(deps, deps.store, { tenantId, channel: "widget" });
  await insertMessage(deps, deps.store, stranger, { role: "visitor", text: "just looking" });
  strangerSession = stranger.id;
  closeDeps(deps);
});

describe("parley lead and parley session (privacy requests)", () => {
  test("lead export prints everything about the person as JSON; another tenant's lead is not found", async () => {
    const exported = await cli(["lead", "export", "lead_00000000000000ana", "--tenant", tenantId, "--db", db]);
    expect(exported.code).toBe(0);
    const body = JSON.parse(exported.out);
    expect(body.leads[0]).toMatchObject({ lead_id: "lead_00000000000000ana", email: "ana@example.com" });
    expect(body.sessions.map((session: { session_id: string }) => session.session_id)).toEqual([leadSession]);
    expect(body.sessions[0].messages[0].text).toContain("ana@example.com");
    const wrongTenant = await cli(["lead", "export", "lead_00000000000000ana", "--tenant", otherTenantId, "--db", db]);
    expect(wrongTenant.code).toBe(1);
    expect(wrongTenant.err).toContain("No such lead");
    expect((await cli(["lead", "export", "lead_00000000000000ana", "--db", db])).code).toBe(2); // --tenant is required
  });

  test("lead erase deletes the person; session erase deletes a visitor; both say what went", async () => {
    const erased = await cli(["lead", "erase", "lead_00000000000000ana", "--tenant", tenantId, "--json", "--db", db]);
    expect(erased.code).toBe(0);
    expect(JSON.parse(erased.out)).toMatchObject({ erased: true, leads: 1, sessions: 1, messages: 1 });
    expect((await cli(["lead", "export", "lead_00000000000000ana", "--tenant", tenantId, "--db", db])).code).toBe(1);
    const session = await cli(["session", "erase", strangerSession, "--tenant", tenantId, "--db", db]);
    expect(session.code).toBe(0);
    expect(session.out).toContain("1 session(s) with 1 message(s)");
    expect((await cli(["session", "export", strangerSession, "--tenant", tenantId, "--db", db])).code).toBe(1);
  });
});
