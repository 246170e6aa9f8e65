import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/run.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { DeliveryScheduler } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps } from "../helpers.ts";

// @sqlite-only: runs the CLI with --db on a SQLite file; the CLI over PostgreSQL is covered by test/cli/postgres.test.ts

const dir = mkdtempSync(join(tmpdir(), "parley-dlq-"));
const db = join(dir, "dlq.db");
let tenantA: string;
let tenantB: string;
let deadIds: { a: string[]; b: string[] };

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    env: { PARLEY_LOG_LEVEL: "silent" },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    readStdin: async () => "",
  };
  const code = await runCli([...args, "--db", db], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

beforeAll(async () => {
  // Dead letters made the real way: rules, events, and four failed attempts each. The fake
  // clock sits at the real time so the CLI (which uses the system clock) sees them as live.
  const deps = buildDeps({ allowPrivateWebhooks: true }, {}, {}, db);
  deps.clock.set(Date.now() - 3_600_000);
  tenantA = (await createTenant(deps, { name: "A" })).id;
  tenantB = (await createTenant(deps, { name: "B" })).id;
  for (const [tenantId, event] of [
    [tenantA, "lead.created"],
    [tenantA, "appointment.created"],
    [tenantB, "lead.created"],
  ] as const) {
    await createRule(deps, tenantId, {
      name: event,
      event,
      url: `https://hooks.example/${tenantId}/${event}`,
      secret: "s".repeat(16),
      active: true,
    });
    await deps.store.transaction((tx) => enqueueEvent(deps, tx, { tenantId, event, data: { n: 1 } }));
  }
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
  const ids = (tenant: string) =>
    deps.sqlite
      .prepare<{ id: string }, [string]>("SELECT id FROM dead_letters WHERE tenant_id = ? ORDER BY id")
      .all(tenant)
      .map((row) => row.id);
  deadIds = { a: ids(tenantA), b: ids(tenantB) };
  deps.sqlite.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("parley dlq", () => {
  test("list shows every tenant's dead letters with the documented columns, and filters", async () => {
    const table = await cli(["dlq", "list"]);
    expect(table.code).toBe(0);
    for (const column of [
      "ID",
      "WEBHOOK_ID",
      "TENANT",
      "RULE",
      "EVENT",
      "ATTEMPTS",
      "LAST ERROR",
      "DEAD AT",
      "EXPIRES AT",
    ])
      expect(table.out).toContain(column);
    expect(table.out).toContain("http_status: 410");
    const all = JSON.parse((await cli(["dlq", "list", "--json"])).out);
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({ attempts: 4, last_status_code: 410, total_attempts: 4 });
    // The URL each went to, as GET /webhooks/dead-letters gives it.
    expect(
      all.map((row: { tenant_id: string; url: string }) =>
        row.url.startsWith(`https://hooks.example/${row.tenant_id}/`),
      ),
    ).toEqual([true, true, true]);
    expect(JSON.parse((await cli(["dlq", "list", "--tenant", tenantA, "--json"])).out)).toHaveLength(2);
    expect(JSON.parse((await cli(["dlq", "list", "--event", "appointment.created", "--json"])).out)).toHaveLength(1);
    expect(JSON.parse((await cli(["dlq", "list", "--since", "2999-01-01T00:00:00Z", "--json"])).out)).toHaveLength(0);
  });

  test("show prints the delivery's attempt log", async () => {
    const shown = await cli(["dlq", "show", deadIds.b[0] ?? ""]);
    expect(shown.code).toBe(0);
    expect(shown.out.match(/http_status: 410/g)?.length).toBe(4);
    const json = JSON.parse((await cli(["dlq", "show", deadIds.b[0] ?? "", "--json"])).out);
    expect(json.delivery.attempt_log).toHaveLength(4);
    expect((await cli(["dlq", "show", "dlq_nope"])).code).toBe(1);
  });

  test("bad usage is refused with exit 2", async () => {
    expect((await cli(["dlq", "retrigger"])).code).toBe(2);
    expect((await cli(["dlq", "retrigger", "--all", deadIds.a[0] ?? ""])).code).toBe(2);
    expect((await cli(["dlq", "list", "--since", "yesterday"])).code).toBe(2);
    expect((await cli(["dlq", "list", "--event", "lead.deleted"])).code).toBe(2);
    expect((await cli(["dlq", "explode"])).code).toBe(2);
  });

  test("retrigger by id moves one dead letter back to a pending delivery with the same webhook_id", async () => {
    const before = JSON.parse((await cli(["dlq", "list", "--tenant", tenantB, "--json"])).out)[0];
    const result = await cli(["dlq", "retrigger", before.dead_letter_id, "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out).retriggered).toEqual([
      { dead_letter_id: before.dead_letter_id, webhook_id: before.webhook_id },
    ]);
    expect(JSON.parse((await cli(["dlq", "list", "--tenant", tenantB, "--json"])).out)).toEqual([]);
    expect((await cli(["dlq", "retrigger", before.dead_letter_id])).code).toBe(1);
  });

  test("retrigger --all --tenant moves that tenant's dead letters only", async () => {
    const result = await cli(["dlq", "retrigger", "--all", "--tenant", tenantA]);
    expect(result.code).toBe(0);
    expect(result.out).toContain("2 dead letter(s) moved back");
    expect(JSON.parse((await cli(["dlq", "list", "--json"])).out)).toEqual([]);
  });

  test("recover --rule --since puts that rule's deliveries dead since then back on a fresh cycle, and no others", async () => {
    // The three re-triggered deliveries (due now, created an hour ago) fail through a whole cycle again.
    const deps = buildDeps({ allowPrivateWebhooks: true }, {}, {}, db);
    deps.clock.set(Date.now());
    const scheduler = new DeliveryScheduler(deps, {
      send: async () => ({ ok: false, statusCode: 502, error: "http_status: 502", durationMs: 1, responseExcerpt: "" }),
    });
    for (const wait of [0, 30_000, 300_000, 1_800_000]) {
      deps.clock.advance(wait);
      await scheduler.runOnce();
    }
    deps.sqlite.close();
    const dead = JSON.parse((await cli(["dlq", "list", "--json"])).out) as Array<{
      webhook_id: string;
      rule_id: string;
      tenant_id: string;
      event: string;
    }>;
    expect(dead).toHaveLength(3);
    const leadOfA = dead.find((row) => row.tenant_id === tenantA && row.event === "lead.created");
    const ofB = dead.find((row) => row.tenant_id === tenantB);

    const recovered = await cli([
      "dlq",
      "recover",
      "--rule",
      leadOfA?.rule_id ?? "",
      "--since",
      new Date(Date.now() - 2 * 3_600_000).toISOString(),
      "--json",
    ]);
    expect(recovered.code).toBe(0);
    expect(JSON.parse(recovered.out)).toMatchObject({ rule_id: leadOfA?.rule_id, recovered: 1 });
    const left = JSON.parse((await cli(["dlq", "list", "--json"])).out) as Array<{ webhook_id: string }>;
    expect(left.map((row) => row.webhook_id).sort()).toEqual(
      dead
        .filter((row) => row !== leadOfA)
        .map((row) => row.webhook_id)
        .sort(),
    );
    // B's delivery was created an hour ago: a `since` ten minutes ago leaves it dead.
    const none = await cli([
      "dlq",
      "recover",
      "--rule",
      ofB?.rule_id ?? "",
      "--since",
      new Date(Date.now() - 600_000).toISOString(),
    ]);
    expect(none.out).toContain("0 failed or dead");
    expect(JSON.parse((await cli(["dlq", "list", "--json"])).out)).toHaveLength(2);
    expect((await cli(["dlq", "recover", "--rule", "rule_nope", "--since", "2026-01-15T00:00:00Z"])).code).toBe(1);
    expect((await cli(["dlq", "recover", "--rule", leadOfA?.rule_id ?? ""])).code).toBe(2);
  });
});
