import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { createRule, deleteRule } from "../../src/webhooks/rules.ts";
import { getDelivery } from "../../src/webhooks/deliveries.ts";
import { listDeadLetters, retriggerDeadLetters } from "../../src/webhooks/dead-letters.ts";
import type { AttemptResult } from "../../src/webhooks/send-webhook.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { buildDeps, closeDeps, testSql } from "../helpers.ts";
import { decideFinishedAttempts } from "../../src/webhooks/retry-policy.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

interface Call {
  at: number;
  attempt: string | undefined;
  webhookId: string | undefined;
}

let deps: ReturnType<typeof buildDeps>;
let calls: Call[];
let answers: boolean[];
let scheduler: DeliveryScheduler;
let tenantId: string;
let ruleId: string;

/** A sender that records when it was called and answers from a script (true = 2xx). */
const scriptedSend: SendFn = async (input) => {
  calls.push({
    at: deps.clock.now(),
    attempt: input.headers["X-Service-Attempt"],
    webhookId: input.headers["webhook-id"],
  });
  const ok = answers.shift() ?? false;
  const result: AttemptResult = ok
    ? { ok: true, statusCode: 200, error: null, durationMs: 3, responseExcerpt: "ok" }
    : { ok: false, statusCode: 503, error: "http_status: 503", durationMs: 3, responseExcerpt: "busy" };
  return result;
};

async function emitLead(): Promise<string> {
  const { deliveryIds } = await deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, { tenantId, event: "lead.created", data: { lead_id: "lead_1" }, confidence: 0.9 }),
  );
  expect(deliveryIds).toHaveLength(1);
  return deliveryIds[0] ?? "";
}

/** Advances the fake clock to `ms` after the start and runs the scheduler once. */
async function at(startMs: number, offsetMs: number): Promise<number> {
  deps.clock.set(startMs + offsetMs);
  return scheduler.runOnce();
}

beforeEach(async () => {
  deps = buildDeps({ allowPrivateWebhooks: true });
  calls = [];
  answers = [];
  scheduler = new DeliveryScheduler(deps, { send: scriptedSend });
  tenantId = (await createTenant(deps, { name: "Clinic" })).id;
  ruleId = (
    await createRule(deps, tenantId, {
      name: "crm",
      event: "lead.created",
      url: "https://crm.example/hook",
      secret: "s".repeat(32),
      active: true,
    })
  ).rule_id;
});
afterEach(() => closeDeps(deps));

describe("the retry schedule", () => {
  test("attempts go at 0, +30 s, +5 min, +30 min after each failure, then exactly one dead letter", async () => {
    const start = deps.clock.now();
    const webhookId = await emitLead();
    expect(await at(start, 0)).toBe(1);
    // Not due one second early, due exactly on time.
    expect(await at(start, 30 * SECOND - 1)).toBe(0);
    expect(await at(start, 30 * SECOND)).toBe(1);
    expect(await at(start, 30 * SECOND + 5 * MINUTE - 1)).toBe(0);
    expect(await at(start, 30 * SECOND + 5 * MINUTE)).toBe(1);
    expect(await at(start, 30 * SECOND + 35 * MINUTE - 1)).toBe(0);
    expect(await at(start, 30 * SECOND + 35 * MINUTE)).toBe(1);
    expect(await at(start, 10 * DAY)).toBe(0);

    expect(calls.map((call) => call.at - start)).toEqual([
      0,
      30 * SECOND,
      30 * SECOND + 5 * MINUTE,
      30 * SECOND + 35 * MINUTE,
    ]);
    expect(calls.map((call) => call.attempt)).toEqual(["1", "2", "3", "4"]);
    expect(new Set(calls.map((call) => call.webhookId))).toEqual(new Set([webhookId]));

    const delivery = await getDelivery(deps, tenantId, webhookId);
    expect(delivery.status).toBe("dead");
    expect(delivery.attempt_log.map((attempt) => [attempt.attempt, attempt.status_code, attempt.error])).toEqual([
      [1, 503, "http_status: 503"],
      [2, 503, "http_status: 503"],
      [3, 503, "http_status: 503"],
      [4, 503, "http_status: 503"],
    ]);
  });

  test("waits are measured from the end of the failed attempt", async () => {
    const start = deps.clock.now();
    await emitLead();
    // This sender takes 7 s (on the fake clock) to fail.
    const slow = new DeliveryScheduler(deps, {
      send: async (input) => {
        calls.push({
          at: deps.clock.now(),
          attempt: input.headers["X-Service-Attempt"],
          webhookId: input.headers["webhook-id"],
        });
        deps.clock.advance(7 * SECOND);
        return { ok: false, statusCode: null, error: "timeout", durationMs: 7000, responseExcerpt: null };
      },
    });
    await slow.runOnce();
    deps.clock.set(start + 7 * SECOND + 30 * SECOND - 1);
    expect(await slow.runOnce()).toBe(0);
    deps.clock.set(start + 7 * SECOND + 30 * SECOND);
    expect(await slow.runOnce()).toBe(1);
  });

  test("a success at attempt 3 ends the cycle", async () => {
    const start = deps.clock.now();
    answers = [false, false, true];
    const webhookId = await emitLead();
    await at(start, 0);
    await at(start, 30 * SECOND);
    await at(start, 30 * SECOND + 5 * MINUTE);
    expect(await at(start, 2 * DAY)).toBe(0);
    expect(calls).toHaveLength(3);
    const delivery = await getDelivery(deps, tenantId, webhookId);
    expect(delivery.status).toBe("succeeded");
    expect(delivery.attempts).toBe(3);
    expect((await listDeadLetters(deps, { tenantId }, { limit: 10 })).data).toEqual([]);
  });
});

describe("the dead-letter queue", () => {
  async function killDelivery(): Promise<{ start: number; webhookId: string; deadAt: number }> {
    const start = deps.clock.now();
    const webhookId = await emitLead();
    for (const offset of [0, 30 * SECOND, 30 * SECOND + 5 * MINUTE, 30 * SECOND + 35 * MINUTE]) await at(start, offset);
    return { start, webhookId, deadAt: start + 30 * SECOND + 35 * MINUTE };
  }

  test("a dead letter is kept 7 days: present at 7 d − 1 min, purged at 7 d + 1 min", async () => {
    const { deadAt } = await killDelivery();
    const [deadLetter] = (await listDeadLetters(deps, { tenantId }, { limit: 10 })).data;
    expect(deadLetter?.expires_at).toBe(new Date(deadAt + 7 * DAY).toISOString());
    expect(deadLetter?.attempts).toBe(4);
    expect(deadLetter?.last_error).toBe("http_status: 503");

    deps.clock.set(deadAt + 7 * DAY - MINUTE);
    await scheduler.runOnce();
    expect((await listDeadLetters(deps, { tenantId }, { limit: 10 })).data).toHaveLength(1);

    deps.clock.set(deadAt + 7 * DAY + MINUTE);
    await scheduler.runOnce();
    expect(
      (await (await testSql(deps)).get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM dead_letters"))?.n,
    ).toBe(0);
  });

  test("a re-trigger starts a fresh 4-attempt cycle with the same webhook_id, and a new retention if it dies again", async () => {
    const { webhookId } = await killDelivery();
    const [deadLetter] = (await listDeadLetters(deps, { tenantId }, { limit: 10 })).data;
    deps.clock.advance(2 * DAY);
    const retriggerAt = deps.clock.now();
    expect((await retriggerDeadLetters(deps, tenantId, [deadLetter?.dead_letter_id ?? ""])).retriggered).toEqual([
      { dead_letter_id: deadLetter?.dead_letter_id ?? "", webhook_id: webhookId },
    ]);
    expect((await listDeadLetters(deps, { tenantId }, { limit: 10 })).data).toEqual([]);

    calls = [];
    for (const offset of [0, 30 * SECOND, 30 * SECOND + 5 * MINUTE, 30 * SECOND + 35 * MINUTE])
      await at(retriggerAt, offset);
    expect(calls.map((call) => call.attempt)).toEqual(["1", "2", "3", "4"]);
    expect(new Set(calls.map((call) => call.webhookId))).toEqual(new Set([webhookId]));

    const [again] = (await listDeadLetters(deps, { tenantId }, { limit: 10 })).data;
    expect(again?.dead_letter_id).not.toBe(deadLetter?.dead_letter_id);
    expect(again?.expires_at).toBe(new Date(retriggerAt + 30 * SECOND + 35 * MINUTE + 7 * DAY).toISOString());
    const delivery = await getDelivery(deps, tenantId, webhookId);
    expect(delivery.cycle).toBe(2);
    expect(delivery.attempt_log.map((attempt) => `${attempt.cycle}.${attempt.attempt}`)).toEqual([
      "1.1",
      "1.2",
      "1.3",
      "1.4",
      "2.1",
      "2.2",
      "2.3",
      "2.4",
    ]);
  });

  test("a re-triggered delivery that succeeds leaves no dead letter", async () => {
    const { webhookId } = await killDelivery();
    const [deadLetter] = (await listDeadLetters(deps, { tenantId }, { limit: 10 })).data;
    answers = [true];
    await retriggerDeadLetters(deps, tenantId, [deadLetter?.dead_letter_id ?? ""]);
    await scheduler.runOnce();
    expect((await getDelivery(deps, tenantId, webhookId)).status).toBe("succeeded");
    expect((await listDeadLetters(deps, { tenantId }, { limit: 10 })).data).toEqual([]);
  });

  test("another tenant cannot re-trigger or see a dead letter", async () => {
    await killDelivery();
    const other = (await createTenant(deps, { name: "Other" })).id;
    const [deadLetter] = (await listDeadLetters(deps, { tenantId }, { limit: 10 })).data;
    expect((await listDeadLetters(deps, { tenantId: other }, { limit: 10 })).data).toEqual([]);
    await expect(retriggerDeadLetters(deps, other, [deadLetter?.dead_letter_id ?? ""])).rejects.toThrow(
      "No such dead letter",
    );
    expect((await listDeadLetters(deps, { tenantId }, { limit: 10 })).data).toHaveLength(1);
  });
});

describe("leases", () => {
  test("a claim whose sender died is due again once the lease expires: delivered at least once", async () => {
    const webhookId = await emitLead();
    const leaseMs = deps.config.deliveryTimeoutMs * 2 + 1000;
    // A process claims the row and dies without recording anything.
    expect(await deps.store.deliveryQueue.claimDueDeliveries(deps.clock.now(), 10, leaseMs)).toHaveLength(1);
    answers = [true];
    expect(await scheduler.runOnce()).toBe(0);
    deps.clock.advance(leaseMs - 1);
    expect(await scheduler.runOnce()).toBe(0);
    deps.clock.advance(1);
    expect(await scheduler.runOnce()).toBe(1);
    expect((await getDelivery(deps, tenantId, webhookId)).status).toBe("succeeded");
    // The retry after a lost claim is still attempt 1: the lost attempt was never recorded.
    expect(calls.map((call) => call.attempt)).toEqual(["1"]);
  });

  test("a sender whose lease ran out cannot overwrite the result of the one that reclaimed the row", async () => {
    const webhookId = await emitLead();
    const leaseMs = deps.config.deliveryTimeoutMs * 2 + 1000;
    const [stale] = await deps.store.deliveryQueue.claimDueDeliveries(deps.clock.now(), 10, leaseMs);
    deps.clock.advance(leaseMs);
    answers = [true];
    await scheduler.runOnce();
    const outcomes = await deps.store.deliveryQueue.recordAttempts(
      decideFinishedAttempts({ retryDelaysMs: deps.config.retryDelaysMs, dlqRetentionMs: deps.config.dlqRetentionMs }, [
        {
          delivery: stale!,
          result: { ok: false, statusCode: 500, error: "late", durationMs: 1, responseExcerpt: null },
          startedAt: 0,
          finishedAt: deps.clock.now(),
        },
      ]),
    );
    expect(outcomes).toEqual(["stale"]);
    expect((await getDelivery(deps, tenantId, webhookId)).status).toBe("succeeded");
  });

  test("a delivery whose rule was deleted is cancelled, not sent", async () => {
    const webhookId = await emitLead();
    await deleteRule(deps, tenantId, ruleId);
    expect(await scheduler.runOnce()).toBe(0);
    expect(calls).toEqual([]);
    const delivery = await getDelivery(deps, tenantId, webhookId);
    expect(delivery.status).toBe("cancelled");
    expect(delivery.last_error).toContain("rule_deleted");
  });
});
