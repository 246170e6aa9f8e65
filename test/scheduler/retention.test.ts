import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { sweepRetention } from "../../src/scheduler/retention.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql } from "../helpers.ts";
import { testPostgresUrl } from "../pg/test-store.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let deps: ReturnType<typeof buildDeps>;
let answers: boolean[];
let tenantId: string;

/** Answers from a script: true = 2xx, false (or nothing left) = 503. */
const scriptedSend: SendFn = async () => {
  const ok = answers.shift() ?? false;
  return ok
    ? { ok: true, statusCode: 200, error: null, durationMs: 2, responseExcerpt: "ok" }
    : { ok: false, statusCode: 503, error: "http_status: 503", durationMs: 2, responseExcerpt: "busy" };
};

const count = async (table: string, where = "1 = 1", ...params: string[]) =>
  (
    await (
      await testSql(deps)
    ).get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table} WHERE ${where}`, ...params)
  )?.n ?? 0;

async function emit(
  event: "lead.created" | "session.started",
): Promise<{ eventId: string; deliveryId: string | undefined }> {
  const emitted = await deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, { tenantId, event, data: { lead_id: "lead_x" }, confidence: 0.9 }),
  );
  return { eventId: emitted.eventId, deliveryId: emitted.deliveryIds[0] };
}

const scheduler = () => new DeliveryScheduler(deps, { send: scriptedSend });

beforeEach(async () => {
  // Dead letters outlive the event retention here, so a re-triggerable delivery is old enough to purge.
  deps = buildDeps({ allowPrivateWebhooks: true, dlqRetentionMs: 60 * DAY, retryDelaysMs: [MINUTE] });
  answers = [];
  tenantId = (await createTenant(deps, { name: "Clinic" })).id;
  await createRule(deps, tenantId, {
    name: "crm",
    event: "lead.created",
    url: "https://crm.example/hook",
    secret: "s".repeat(32),
    active: true,
  });
});
afterEach(() => closeDeps(deps));

describe("event retention (PARLEY_EVENT_RETENTION)", () => {
  test("defaults to 30 days", () => {
    expect(deps.config.eventRetentionMs).toBe(30 * DAY);
  });

  test("succeeded deliveries with their attempt logs and spent events go after it; pending and re-triggerable ones stay", async () => {
    const start = deps.clock.now();
    answers = [true, false, false];
    const succeeded = await emit("lead.created");
    const dead = await emit("lead.created");
    const unmatched = await emit("session.started");
    await scheduler().runOnce();
    deps.clock.set(start + MINUTE + 2);
    await scheduler().runOnce(); // the second attempt of `dead` fails too: two attempts, dead letter.
    expect(await count("dead_letters")).toBe(1);
    const pending = await emit("lead.created"); // never sent: stays pending

    expect(await count("delivery_attempts", "delivery_id = ?", succeeded.deliveryId ?? "")).toBe(1);

    deps.clock.set(start + 30 * DAY - MINUTE);
    const early = await sweepRetention(deps);
    expect(early).toMatchObject({ deliveries: 0, events: 0, complete: true });

    deps.clock.set(start + 30 * DAY + 2 * MINUTE);
    const report = await sweepRetention(deps);
    expect(report).toMatchObject({ deliveries: 1, events: 2, complete: true });
    expect(await count("deliveries", "id = ?", succeeded.deliveryId ?? "")).toBe(0);
    expect(await count("delivery_attempts", "delivery_id = ?", succeeded.deliveryId ?? "")).toBe(0);
    expect(await count("events", "id IN (?, ?)", succeeded.eventId, unmatched.eventId)).toBe(0);
    // The dead letter can still be re-triggered: its delivery and event stay. So does the pending one.
    expect(await count("deliveries", "id IN (?, ?)", dead.deliveryId ?? "", pending.deliveryId ?? "")).toBe(2);
    expect(await count("events", "id IN (?, ?)", dead.eventId, pending.eventId)).toBe(2);
    expect(await count("delivery_attempts", "delivery_id = ?", dead.deliveryId ?? "")).toBe(2);

    // Once the dead letter expires and is swept, its delivery log and event follow.
    deps.clock.set(start + 61 * DAY);
    answers = [true];
    await scheduler().runOnce(); // sweeps expired dead letters, sends `pending`
    expect(await count("dead_letters")).toBe(0);
    const late = await sweepRetention(deps);
    expect(late).toMatchObject({ deliveries: 1, events: 1 });
    expect(await count("events", "id = ?", dead.eventId)).toBe(0);
    // `pending` succeeded just now: its 30 days start from there.
    expect(await count("deliveries", "id = ?", pending.deliveryId ?? "")).toBe(1);
    deps.clock.set(start + 92 * DAY);
    expect(await sweepRetention(deps)).toMatchObject({ deliveries: 1, events: 1 });
    expect(await count("events")).toBe(0);
    expect(await count("deliveries")).toBe(0);
    expect(await count("delivery_attempts")).toBe(0);
  });

  test("a sweep deletes in bounded batches and the next sweep finishes the backlog", async () => {
    const start = deps.clock.now();
    for (let index = 0; index < 25; index++) await emit("session.started");
    deps.clock.set(start + 31 * DAY);
    const first = await sweepRetention(deps, { batchSize: 10, maxBatches: 2 });
    expect(first).toMatchObject({ events: 20, complete: false });
    expect(await count("events")).toBe(5);
    const second = await sweepRetention(deps, { batchSize: 10, maxBatches: 2 });
    expect(second).toMatchObject({ events: 5, complete: true });
    expect(await count("events")).toBe(0);
  });

  test("the scheduler's housekeeping runs the sweep off the request path, and stop() waits for it", async () => {
    const start = deps.clock.now();
    await emit("session.started");
    deps.clock.set(start + 31 * DAY);
    const running = new DeliveryScheduler(deps, { send: scriptedSend, maintenanceIntervalMs: 3_600_000 });
    running.start();
    await running.stop();
    expect(await count("events")).toBe(0);
  });

  // About SQLite's file lock (BEGIN IMMEDIATE from another connection, busy_timeout 0): SQLite only.
  test.skipIf(Boolean(testPostgresUrl()))(
    "while another connection holds the write lock, a sweep stops quietly and the next one finishes",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "parley-retention-"));
      const fileDeps = buildDeps({}, {}, {}, join(dir, "locked.db"));
      try {
        const tenant = (await createTenant(fileDeps, { name: "Locked" })).id;
        const start = fileDeps.clock.now();
        await fileDeps.store.transaction((tx) =>
          enqueueEvent(fileDeps, tx, { tenantId: tenant, event: "session.started", data: {} }),
        );
        fileDeps.clock.set(start + 31 * DAY);
        // As the server runs: its connection never waits inside SQLite for a lock.
        fileDeps.sqlite.exec("PRAGMA busy_timeout = 0");
        const other = new Database(join(dir, "locked.db"));
        other.exec("BEGIN IMMEDIATE");
        expect(await sweepRetention(fileDeps)).toMatchObject({ events: 0, complete: false });
        other.exec("ROLLBACK");
        other.close(true);
        expect(await sweepRetention(fileDeps)).toMatchObject({ events: 1, complete: true });
      } finally {
        fileDeps.sqlite.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
