import { modelAssistant } from "../../src/assistant/turn-assistant.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { validateApiKey } from "../../src/auth/api-keys.ts";
import { authenticateUser } from "../../src/auth/authenticate-user.ts";
import { loadConfig } from "../../src/config.ts";
import { copyCommand } from "../../src/cli/copy.ts";
import { tablesInCopyOrder } from "../../src/db/copy.ts";
import { openStore, type OpenedStore } from "../../src/db/open-store.ts";
import type { Deps } from "../../src/deps.ts";
import { createFakeClock } from "../../src/lib/clock.ts";
import { silentLogger } from "../../src/lib/log.ts";
import { createSignal } from "../../src/lib/signal.ts";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { buildDeps, closeDeps, TEST_JWT_SECRET } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";
import { cli } from "./cli-helpers.ts";

// Every CLI command against a PostgreSQL database (`--db postgres://…`), and `parley copy`
// from a SQLite file into one. Runs when PARLEY_TEST_DB names a PostgreSQL server (npm test's
// second run): each database here is a fresh one, created on that server and dropped after.

const serverUrl = testPostgresUrl();
const created: string[] = [];

/** A fresh, empty database on the test server; its URL. */
async function freshDatabase(): Promise<string> {
  const name = `cli_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e9).toString(36)}`;
  const admin = new SQL({ url: serverUrl ?? "", max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  created.push(name);
  const url = new URL(serverUrl ?? "");
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  if (!serverUrl || created.length === 0) return;
  const admin = new SQL({ url: serverUrl, max: 1 });
  for (const name of created) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.close();
});

/** Domain deps over a database the CLI also uses (a store of their own), the clock an hour back so what they write is live. */
function depsOver(location: string): { deps: Deps; opened: OpenedStore } {
  const opened = openStore(location);
  const clock = createFakeClock();
  clock.set(Date.now() - 3_600_000);
  const config = loadConfig({
    PARLEY_JWT_SECRET: TEST_JWT_SECRET,
    PARLEY_DB: location,
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
  });
  return {
    deps: {
      store: opened.store,
      config,
      clock,
      log: silentLogger,
      assistant: modelAssistant,
      deliveriesEnqueued: createSignal(),
    },
    opened,
  };
}

/** A dead letter made the real way: a rule, an event, and four failed attempts. */
async function plantDeadLetter(
  deps: Deps & { clock: ReturnType<typeof createFakeClock> },
  tenantId: string,
): Promise<void> {
  await createRule(deps, tenantId, {
    name: "crm",
    event: "lead.created",
    url: "https://hooks.example/crm",
    secret: "s".repeat(16),
    active: true,
  });
  await deps.store.transaction((tx) => enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: { n: 1 } }));
  const scheduler = new DeliveryScheduler(deps, {
    send: async () => ({
      ok: false,
      statusCode: 410,
      error: "http_status: 410",
      durationMs: 1,
      responseExcerpt: "gone",
    }),
  });
  for (const wait of [0, 30_000, 300_000, 1_800_000]) {
    deps.clock.advance(wait);
    await scheduler.runOnce();
  }
}

const tableNames = tablesInCopyOrder().map((table) => getTableConfig(table).name);

async function pgCounts(url: string): Promise<Record<string, number>> {
  const sql = new SQL({ url, max: 1 });
  try {
    const counts: Record<string, number> = {};
    for (const name of tableNames)
      counts[name] =
        ((await sql.unsafe(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${name}`)) as Array<{ n: number }>)[0]?.n ?? -1;
    return counts;
  } finally {
    await sql.close();
  }
}

function sqliteCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      tableNames.map((name) => [name, db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${name}`).get()?.n ?? -1]),
    );
  } finally {
    db.close();
  }
}

describe.skipIf(!serverUrl)("the CLI against PostgreSQL (--db postgres://…)", () => {
  let db: string;
  beforeAll(async () => {
    db = await freshDatabase();
  });

  test("migrate creates the schema, and running it again applies nothing", async () => {
    const first = await cli(["migrate", "--db", db, "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out).applied.length).toBeGreaterThan(0);
    const second = await cli(["migrate", "--db", db, "--json"]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.out).applied).toEqual([]);
  });

  test("tenant, user, apikey, dlq, lead and session commands", async () => {
    const tenant = JSON.parse(
      (await cli(["tenant", "create", "--name", "Smile Dental", "--sector", "dental-clinic", "--json", "--db", db]))
        .out,
    ) as { tenant_id: string };
    expect(tenant.tenant_id).toStartWith("ten_");
    const listed = JSON.parse((await cli(["tenant", "list", "--json", "--db", db])).out) as Array<{
      tenant_id: string;
      plan: string;
    }>;
    expect(listed.map((row) => row.tenant_id)).toContain(tenant.tenant_id);
    const plan = await cli(["tenant", "plan", tenant.tenant_id, "pro", "--db", db]);
    expect(plan.code).toBe(0);
    expect(
      (
        JSON.parse((await cli(["tenant", "list", "--json", "--db", db])).out) as Array<{
          tenant_id: string;
          plan: string;
        }>
      ).find((row) => row.tenant_id === tenant.tenant_id)?.plan,
    ).toBe("pro");

    const user = await cli(
      ["user", "create", "--email", "Ana@Smile.example", "--tenant", tenant.tenant_id, "--db", db, "--json"],
      { stdin: "a-long-password\n" },
    );
    expect(user.code).toBe(0);
    expect(
      (await cli(["user", "create", "--email", "ana@smile.example", "--tenant", tenant.tenant_id, "--db", db])).code,
    ).toBe(1);
    const changed = await cli(["user", "password", "--email", "ana@smile.example", "--db", db], {
      stdin: "another-password\n",
    });
    expect(changed.code).toBe(0);
    const named = await cli([
      "user",
      "name",
      "--email",
      "ana@smile.example",
      "--name",
      " Ana Lima ",
      "--json",
      "--db",
      db,
    ]);
    expect(named.code).toBe(0);
    expect(JSON.parse(named.out)).toMatchObject({ display_name: "Ana Lima" });
    expect(
      (await cli(["user", "name", "--email", "ana@smile.example", "--name", "x".repeat(61), "--db", db])).code,
    ).toBe(2);
    expect(
      (
        await cli(
          ["user", "create", "--email", "bea@smile.example", "--tenant", tenant.tenant_id, "--name", "Bea", "--db", db],
          { stdin: "a-long-password\n" },
        )
      ).code,
    ).toBe(0);

    const key = JSON.parse(
      (await cli(["apikey", "create", "--tenant", tenant.tenant_id, "--name", "crm", "--json", "--db", db])).out,
    ) as { key_id: string; key: string };
    expect(key.key).toBeString();
    expect((await cli(["apikey", "list", "--tenant", tenant.tenant_id, "--db", db])).out).toContain("crm");
    expect((await cli(["apikey", "revoke", key.key_id, "--db", db])).code).toBe(0);
    expect(
      (
        JSON.parse((await cli(["apikey", "list", "--tenant", tenant.tenant_id, "--json", "--db", db])).out) as Array<{
          revoked_at: string | null;
        }>
      )[0]?.revoked_at,
    ).toMatch(/^\d{4}-.*Z$/);

    const { deps, opened } = depsOver(db);
    try {
      // The password set by the CLI, read through the store by the domain code.
      expect((await authenticateUser(deps, "ana@smile.example", "another-password")).userId).toStartWith("usr_");
      expect((await deps.store.users.findUserByEmail("ana@smile.example"))?.displayName).toBe("Ana Lima");
      expect((await deps.store.users.findUserByEmail("bea@smile.example"))?.displayName).toBe("Bea");
      await plantDeadLetter(deps as Deps & { clock: ReturnType<typeof createFakeClock> }, tenant.tenant_id);
    } finally {
      await opened.close();
    }
    const dead = JSON.parse((await cli(["dlq", "list", "--json", "--db", db])).out) as Array<{
      dead_letter_id: string;
      webhook_id: string;
      attempts: number;
    }>;
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ attempts: 4, last_status_code: 410 });
    const shown = await cli(["dlq", "show", dead[0]!.dead_letter_id, "--db", db]);
    expect(shown.code).toBe(0);
    expect(shown.out.match(/http_status: 410/g)?.length).toBe(4);
    const retriggered = await cli(["dlq", "retrigger", dead[0]!.dead_letter_id, "--json", "--db", db]);
    expect(retriggered.code).toBe(0);
    expect(JSON.parse(retriggered.out).retriggered).toEqual([
      { dead_letter_id: dead[0]!.dead_letter_id, webhook_id: dead[0]!.webhook_id },
    ]);
    expect(JSON.parse((await cli(["dlq", "list", "--json", "--db", db])).out)).toEqual([]);

    // Privacy requests: a session with a lead in it.
    const privacy = depsOver(db);
    let sessionId: string;
    let strangerId: string;
    try {
      const { insertMessage, startSession } = await import("../../src/chat/sessions.ts");
      const session = await startSession(privacy.deps, privacy.deps.store, {
        tenantId: tenant.tenant_id,
        channel: "widget",
      });
      await insertMessage(privacy.deps, privacy.deps.store, session, {
        role: "visitor",
        text: "I'm Ana, ana@example.com",
      });
      await privacy.deps.store.captures.insertLead({
        id: "lead_00000000000000ana",
        tenantId: tenant.tenant_id,
        chatbotId: session.chatbotId,
        sessionId: session.id,
        name: "Ana",
        phone: "+14155550132",
        email: "ana@example.com",
        interest: "x",
        source: "widget",
        confidence: 1,
        capturedAt: 0,
      });
      sessionId = session.id;
      const stranger = await startSession(privacy.deps, privacy.deps.store, {
        tenantId: tenant.tenant_id,
        channel: "widget",
      });
      await insertMessage(privacy.deps, privacy.deps.store, stranger, { role: "visitor", text: "just looking" });
      strangerId = stranger.id;
    } finally {
      await privacy.opened.close();
    }
    const exported = await cli(["lead", "export", "lead_00000000000000ana", "--tenant", tenant.tenant_id, "--db", db]);
    expect(exported.code).toBe(0);
    const body = JSON.parse(exported.out);
    expect(body.leads[0]).toMatchObject({ lead_id: "lead_00000000000000ana", email: "ana@example.com" });
    expect(body.sessions.map((session: { session_id: string }) => session.session_id)).toEqual([sessionId]);
    const erased = await cli([
      "lead",
      "erase",
      "lead_00000000000000ana",
      "--tenant",
      tenant.tenant_id,
      "--json",
      "--db",
      db,
    ]);
    expect(erased.code).toBe(0);
    expect(JSON.parse(erased.out)).toMatchObject({ erased: true, leads: 1, sessions: 1, messages: 1 });
    expect(
      (await cli(["lead", "export", "lead_00000000000000ana", "--tenant", tenant.tenant_id, "--db", db])).code,
    ).toBe(1);
    const sessionExport = await cli(["session", "export", strangerId, "--tenant", tenant.tenant_id, "--db", db]);
    expect(sessionExport.code).toBe(0);
    expect(sessionExport.out).toContain("just looking");
    const sessionErase = await cli(["session", "erase", strangerId, "--tenant", tenant.tenant_id, "--db", db]);
    expect(sessionErase.code).toBe(0);
    expect(sessionErase.out).toContain("1 session(s) with 1 message(s)");
    expect((await cli(["session", "export", strangerId, "--tenant", tenant.tenant_id, "--db", db])).code).toBe(1);
  });

  test("backup and restore refuse a PostgreSQL database with exit 2, naming pg_dump / pg_restore", async () => {
    const backup = await cli(["backup", "/tmp/never-written.db", "--db", db]);
    expect(backup.code).toBe(2);
    expect(backup.err).toContain("pg_dump");
    const restore = await cli(["restore", "/tmp/never-read.db", "--db", db]);
    expect(restore.code).toBe(2);
    expect(restore.err).toContain("pg_restore");
  });
});

describe.skipIf(!serverUrl)("parley copy --from FILE --to postgres://…", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-copy-"));
  const file = join(dir, "source.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let target: string;
  let tenantId: string;
  let apiKey: string;
  let deadLetter: { dead_letter_id: string; webhook_id: string };
  let visitorMessageId: string;

  beforeAll(async () => {
    // The SQLite install, populated through the CLI and the domain code.
    const tenant = JSON.parse((await cli(["tenant", "create", "--name", "Copied", "--json", "--db", file])).out) as {
      tenant_id: string;
    };
    tenantId = tenant.tenant_id;
    expect(
      (
        await cli(["user", "create", "--email", "owner@copied.example", "--tenant", tenantId, "--db", file], {
          stdin: "the-old-password\n",
        })
      ).code,
    ).toBe(0);
    apiKey = (
      JSON.parse(
        (await cli(["apikey", "create", "--tenant", tenantId, "--name", "crm", "--json", "--db", file])).out,
      ) as { key: string }
    ).key;
    const deps = buildDeps({ allowPrivateWebhooks: true }, {}, {}, file);
    try {
      deps.clock.set(Date.now() - 3_600_000);
      await plantDeadLetter(deps, tenantId);
      const { insertMessage, startSession } = await import("../../src/chat/sessions.ts");
      const session = await startSession(deps, deps.store, { tenantId, channel: "widget" });
      visitorMessageId = (await insertMessage(deps, deps.store, session, { role: "visitor", text: "copied walrus" }))
        .message_id;
      await insertMessage(deps, deps.store, session, { role: "bot", text: "copied reply" });
    } finally {
      closeDeps(deps);
    }
    const dead = JSON.parse((await cli(["dlq", "list", "--json", "--db", file])).out) as Array<{
      dead_letter_id: string;
      webhook_id: string;
    }>;
    expect(dead).toHaveLength(1);
    deadLetter = dead[0]!;
    target = await freshDatabase();
  });

  test("copies every row: counts equal per table; logins, API keys and dead letters work on PostgreSQL", async () => {
    const copied = await cli(["copy", "--from", file, "--to", target, "--json"]);
    expect(copied.err).toBe("");
    expect(copied.code).toBe(0);
    const source = sqliteCounts(file);
    expect(source.tenants).toBe(1);
    expect(source.users).toBe(1);
    expect(source.api_keys).toBe(1);
    expect(source.webhook_rules).toBe(1);
    expect(source.events).toBe(1);
    expect(source.dead_letters).toBe(1);
    expect(await pgCounts(target)).toEqual(source);
    expect(JSON.parse(copied.out).rows).toBe(Object.values(source).reduce((sum, n) => sum + n, 0));
    // The visitor's message waits for the search index's catch-up, as a message written there would; the bot's does not.
    const queued = new SQL({ url: target, max: 1 });
    try {
      expect(await queued.unsafe("SELECT message_id FROM chat_messages_search_pending")).toEqual([
        { message_id: visitorMessageId },
      ]);
    } finally {
      await queued.close();
    }

    const { deps, opened } = depsOver(target);
    try {
      expect((await authenticateUser(deps, "owner@copied.example", "the-old-password")).userId).toStartWith("usr_");
      expect(await validateApiKey(deps, apiKey)).toMatchObject({ tenantId });
    } finally {
      await opened.close();
    }
    const retriggered = await cli(["dlq", "retrigger", deadLetter.dead_letter_id, "--json", "--db", target]);
    expect(retriggered.code).toBe(0);
    expect(JSON.parse(retriggered.out).retriggered).toEqual([
      { dead_letter_id: deadLetter.dead_letter_id, webhook_id: deadLetter.webhook_id },
    ]);
  });

  test("a second copy into the now non-empty database is refused with exit 1 and changes nothing", async () => {
    const before = await pgCounts(target);
    const again = await cli(["copy", "--from", file, "--to", target]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("not empty");
    expect(await pgCounts(target)).toEqual(before);
  });

  test("on a terminal it shows rows done / total per table; not with --json or when piped", async () => {
    const written: string[] = [];
    const io = { env: {}, out: () => {}, err: () => {}, readStdin: async () => "" };
    expect(
      await copyCommand(["--from", file, "--to", await freshDatabase()], io, {
        isTTY: true,
        write: (text) => written.push(text),
      }),
    ).toBe(0);
    const screen = written.join("");
    const source = sqliteCounts(file);
    for (const table of ["tenants", "api_keys", "deliveries", "dead_letters"])
      expect(screen).toContain(`${table}: ${source[table]} / ${source[table]} rows\n`);
    expect(screen).toContain("leads: 0 / 0 rows");
    const quiet: string[] = [];
    expect(
      await copyCommand(["--from", file, "--to", await freshDatabase(), "--json"], io, {
        isTTY: true,
        write: (text) => quiet.push(text),
      }),
    ).toBe(0);
    expect(
      await copyCommand(["--from", file, "--to", await freshDatabase()], io, {
        isTTY: false,
        write: (text) => quiet.push(text),
      }),
    ).toBe(0);
    expect(quiet).toEqual([]);
  });

  test("a copy that fails mid-way leaves the target empty", async () => {
    const failing = await freshDatabase();
    expect((await cli(["migrate", "--db", failing])).code).toBe(0);
    // The target rejects the API key row: tenants and users are written before it, then rolled back.
    const sql = new SQL({ url: failing, max: 1 });
    await sql.unsafe("ALTER TABLE api_keys ADD CONSTRAINT copy_test_reject CHECK (name <> 'crm')");
    await sql.close();
    const copied = await cli(["copy", "--from", file, "--to", failing]);
    expect(copied.code).toBe(1);
    expect(copied.err).toContain("copy_test_reject");
    const counts = await pgCounts(failing);
    expect(Object.entries(counts).filter(([, n]) => n !== 0)).toEqual([]);
  });
});

// Needs no PostgreSQL server: nothing listens on port 1.
test("an unreachable PostgreSQL is said in one line naming the database, its password masked", async () => {
  const result = await cli(["tenant", "list", "--db", "postgres://parley:s3cret-pw@127.0.0.1:1/parley"]);
  expect(result.code).toBe(1);
  expect(result.err).toStartWith(
    "parley: cannot use the PostgreSQL database postgres://parley:***@127.0.0.1:1/parley: ",
  );
  expect(result.err).not.toContain("s3cret-pw");
  expect(result.err.split("\n")).toHaveLength(1);
});
