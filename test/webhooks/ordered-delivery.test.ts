import type { DeliveryView } from "../../src/webhooks/deliveries.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DeliveryScheduler, type SendFn } from "../../src/scheduler/scheduler.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import type { EventData, EventName } from "../../src/webhooks/events.ts";
import { listDeadLetters, retriggerDeadLetters } from "../../src/webhooks/dead-letters.ts";
import { buildTestApp, seedTenant, testSql, type TestContext } from "../helpers.ts";
import { openApiDocument } from "../http/openapi-examples.ts";
import { createHousekeeping } from "../../src/scheduler/housekeeping.ts";
import { streamKeyOf } from "../../src/webhooks/ordered-streams.ts";

const SECOND = 1000;
const fakeDns = async () => ["93.184.216.34"];
const CRM = "https://crm.example/hook";
const OTHER = "https://other.example/hook";

let context: TestContext;
let tenant: Awaited<ReturnType<typeof seedTenant>>;
let scheduler: DeliveryScheduler;
/** Every send, in order: the webhook id and whether the receiver took it. */
let received: Array<{ webhookId: string; ok: boolean }>;
/** How many more times the receiver refuses a webhook id (Infinity: always). */
let refusals: Map<string, number>;

const send: SendFn = async (input) => {
  const webhookId = input.headers["webhook-id"] ?? "";
  const left = refusals.get(webhookId) ?? 0;
  if (left > 0) refusals.set(webhookId, left - 1);
  received.push({ webhookId, ok: left === 0 });
  return left === 0
    ? { ok: true, statusCode: 200, error: null, durationMs: 1, responseExcerpt: "ok" }
    : { ok: false, statusCode: 503, error: "http_status: 503", durationMs: 1, responseExcerpt: "down" };
};
const as = { "x-api-key": "" };

async function createRule(event: EventName, url: string, ordering?: string): Promise<string> {
  const response = await context.request("POST", "/api/v1/webhooks/rules-engine/rules", {
    body: { name: `${event} ${url}`, event, url, secret: "whsec_0123456789abcdef", ...(ordering ? { ordering } : {}) },
    headers: as,
  });
  expect(response.status).toBe(201);
  return (await response.json()).rule_id;
}

/** Emits an event and returns its deliveries' ids (one per matching rule, in rule id order). */
async function emit(event: EventName, data: EventData): Promise<string[]> {
  const deps = context.deps;
  const { deliveryIds } = await deps.store.transaction((tx) =>
    enqueueEvent(deps, tx, { tenantId: tenant.tenant.id, event, data }),
  );
  return deliveryIds;
}

const session = (id: string) => ({ session_id: id, lead_id: `lead_${id}` });

async function delivery(webhookId: string): Promise<DeliveryView> {
  const response = await context.request("GET", `/api/v1/webhooks/deliveries/${webhookId}`, { headers: as });
  expect(response.status).toBe(200);
  return response.json();
}

/** Runs the scheduler until nothing more is due now (a release makes the next delivery due at once). */
async function drain(): Promise<void> {
  const queue = context.deps.store.deliveryQueue;
  for (let round = 0; round < 20; round++) {
    const sent = await scheduler.runOnce();
    if (sent === 0 && (await queue.queueGauges(context.clock.now())).due === 0) return;
  }
}

const sentIds = () => received.map((send) => send.webhookId);

beforeEach(async () => {
  context = buildTestApp({ rateLimits: false, retryDelaysMs: [SECOND, SECOND, SECOND] }, {}, { resolveHost: fakeDns });
  tenant = await seedTenant(context.deps, "Ordered");
  as["x-api-key"] = tenant.apiKey;
  received = [];
  refusals = new Map();
  scheduler = new DeliveryScheduler(context.deps, { send });
});
afterEach(() => context.close());

describe("ordered delivery (ordering: per_session)", () => {
  test("with a receiver that fails the first event twice, the second is received only after the first", async () => {
    await createRule("lead.created", CRM, "per_session");
    await createRule("appointment.created", CRM, "per_session");
    const [first = ""] = await emit("lead.created", session("ses_1"));
    const [second = ""] = await emit("appointment.created", session("ses_1"));
    refusals.set(first, 2);

    await drain();
    expect(sentIds()).toEqual([first]);
    const waiting = await delivery(second);
    expect(waiting).toMatchObject({
      status: "waiting",
      ordered: true,
      next_attempt_at: null,
      waiting: { waits_for: first, reason: `waits for ${first} (retrying)` },
    });
    const listed = await (
      await context.request("GET", "/api/v1/webhooks/deliveries?status=waiting", { headers: as })
    ).json();
    expect(listed.data.map((row: DeliveryView) => [row.webhook_id, row.waiting?.reason])).toEqual([
      [second, `waits for ${first} (retrying)`],
    ]);

    context.clock.advance(SECOND);
    await drain();
    expect(sentIds()).toEqual([first, first]);
    expect((await delivery(second)).status).toBe("waiting");
    // The metrics gauge counts it (parley_webhook_waiting_deliveries).
    expect(await context.deps.store.deliveryQueue.queueGauges(context.clock.now())).toMatchObject({
      waiting: 1,
      pending: 1,
    });

    context.clock.advance(SECOND);
    await drain();
    expect(received).toEqual([
      { webhookId: first, ok: false },
      { webhookId: first, ok: false },
      { webhookId: first, ok: true },
      { webhookId: second, ok: true },
    ]);
    expect(await delivery(second)).toMatchObject({ status: "succeeded", waiting: null, attempts: 1 });
  });

  test("a claim carries each delivery's stream key (null when unordered): the result's write releases successors by it", async () => {
    await createRule("lead.created", CRM, "per_session");
    await createRule("lead.created", OTHER);
    const [ordered = "", unordered = ""] = await emit("lead.created", session("ses_1"));
    const claimed = await context.deps.store.deliveryQueue.claimDueDeliveries(context.clock.now(), 10, 60 * SECOND);
    const keyOf = new Map(claimed.map((claim) => [claim.id, claim.streamKey]));
    expect(keyOf.get(unordered)).toBeNull();
    expect(keyOf.get(ordered)).toBe(streamKeyOf(tenant.tenant.id, CRM, session("ses_1")) ?? "none");
  });

  test("dead-lettering the first releases the second", async () => {
    await createRule("lead.created", CRM, "per_session");
    const [first = ""] = await emit("lead.created", session("ses_1"));
    const [second = ""] = await emit("lead.created", session("ses_1"));
    refusals.set(first, Number.POSITIVE_INFINITY);

    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await delivery(second)).status).toBe("waiting");
      await drain();
      context.clock.advance(SECOND);
    }
    expect((await delivery(first)).status).toBe("dead");
    expect(received.map((send) => [send.webhookId, send.ok])).toEqual([
      [first, false],
      [first, false],
      [first, false],
      [first, false],
      [second, true],
    ]);
  });

  test("two rules with one URL share a stream; another URL, another session or no session is a stream of its own or none", async () => {
    const leadToCrm = await createRule("lead.created", CRM, "per_session");
    await createRule("appointment.created", CRM, "per_session");
    await createRule("lead.created", OTHER, "per_session");
    const [leadCrm = "", leadOther = ""] = await emit("lead.created", session("ses_1"));
    const [appointmentCrm = ""] = await emit("appointment.created", session("ses_1"));
    const [otherSessionCrm = "", otherSessionOther = ""] = await emit("lead.created", session("ses_2"));
    const [noSessionCrm = "", noSessionOther = ""] = await emit("lead.created", { lead_id: "lead_x" });
    const [noSessionAgain = ""] = await emit("lead.created", { lead_id: "lead_y" });
    expect((await delivery(leadCrm)).rule_id).toBe(leadToCrm);

    const states = await Promise.all(
      [leadCrm, leadOther, appointmentCrm, otherSessionCrm, otherSessionOther].map(delivery),
    );
    expect(states.map((row) => [row.status, row.waiting?.waits_for ?? null])).toEqual([
      ["pending", null],
      ["pending", null],
      ["waiting", leadCrm],
      ["pending", null],
      ["pending", null],
    ]);
    for (const id of [noSessionCrm, noSessionOther, noSessionAgain])
      expect(await delivery(id)).toMatchObject({ status: "pending", ordered: false });

    await drain();
    const order = sentIds();
    expect(order).toHaveLength(9);
    expect(order.indexOf(appointmentCrm)).toBeGreaterThan(order.indexOf(leadCrm));
  });

  test("an event's two rules with one URL go in rule order, and unordered rules are not held back", async () => {
    await createRule("lead.created", CRM, "per_session");
    await createRule("lead.created", `${CRM}?unordered`);
    const [ordered = "", unordered = ""] = await emit("lead.created", session("ses_1"));
    const [orderedNext = "", unorderedNext = ""] = await emit("lead.created", session("ses_1"));
    refusals.set(ordered, 1);
    await drain();
    expect(new Set(sentIds())).toEqual(new Set([ordered, unordered, unorderedNext]));
    expect((await delivery(orderedNext)).waiting?.waits_for).toBe(ordered);
    context.clock.advance(SECOND);
    await drain();
    expect(sentIds().slice(3)).toEqual([ordered, orderedNext]);
    expect(unorderedNext).not.toBe("");
  });

  test("a re-triggered dead delivery re-enters its stream at the end, behind what is queued there now", async () => {
    await createRule("lead.created", CRM, "per_session");
    const [first = ""] = await emit("lead.created", session("ses_1"));
    refusals.set(first, 4);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await drain();
      context.clock.advance(SECOND);
    }
    expect((await delivery(first)).status).toBe("dead");
    const [second = ""] = await emit("lead.created", session("ses_1"));
    refusals.set(second, 1);
    await drain();
    expect((await delivery(second)).attempts).toBe(1);

    const [deadLetter] = (await listDeadLetters(context.deps, { tenantId: tenant.tenant.id }, { limit: 10 })).data;
    await retriggerDeadLetters(context.deps, tenant.tenant.id, [deadLetter?.dead_letter_id ?? ""]);
    expect(await delivery(first)).toMatchObject({
      status: "waiting",
      cycle: 2,
      waiting: { waits_for: second, reason: `waits for ${second} (retrying)` },
    });

    context.clock.advance(SECOND);
    await drain();
    expect(sentIds().slice(5)).toEqual([second, first]);
    expect((await delivery(first)).status).toBe("succeeded");
  });

  test("dead deliveries of one stream re-triggered together re-enter it in event order, whatever order they were named in", async () => {
    await createRule("lead.created", CRM, "per_session");
    const [first = "", second = ""] = [
      ...(await emit("lead.created", session("ses_1"))),
      ...(await emit("lead.created", session("ses_1"))),
    ];
    refusals.set(first, 4);
    refusals.set(second, 4);
    for (let round = 0; round < 8; round++) {
      await drain();
      context.clock.advance(SECOND);
    }
    const deadLetters = (await listDeadLetters(context.deps, { tenantId: tenant.tenant.id }, { limit: 10 })).data;
    expect(deadLetters.map((row) => row.webhook_id)).toEqual([second, first]);
    const retriggered = await retriggerDeadLetters(
      context.deps,
      tenant.tenant.id,
      deadLetters.map((row) => row.dead_letter_id),
    );
    expect(retriggered.retriggered.map((row) => row.webhook_id)).toEqual([second, first]);
    expect((await delivery(first)).status).toBe("pending");
    expect((await delivery(second)).waiting?.waits_for).toBe(first);
    await drain();
    expect(sentIds().slice(8)).toEqual([first, second]);
  });

  test("recovering a rule puts its dead ordered deliveries back at the end of their streams", async () => {
    const ruleId = await createRule("lead.created", CRM, "per_session");
    const [first = ""] = await emit("lead.created", session("ses_1"));
    refusals.set(first, 4);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await drain();
      context.clock.advance(SECOND);
    }
    const [second = ""] = await emit("lead.created", session("ses_1"));
    refusals.set(second, 1);
    await drain();
    const recovered = await context.request("POST", `/api/v1/webhooks/rules-engine/rules/${ruleId}/recover`, {
      body: { since: "2026-01-01T00:00:00Z" },
      headers: as,
    });
    expect((await recovered.json()).recovered).toBe(2);
    expect(await delivery(second)).toMatchObject({ status: "pending", cycle: 2, waiting: null });
    expect(await delivery(first)).toMatchObject({ status: "waiting", cycle: 2, waiting: { waits_for: second } });
    await drain();
    expect(sentIds().slice(5)).toEqual([second, first]);
  });

  test("a delivery whose rule was deleted is cancelled and lets the next one of its stream go", async () => {
    const leads = await createRule("lead.created", CRM, "per_session");
    await createRule("appointment.created", CRM, "per_session");
    const [lead = ""] = await emit("lead.created", session("ses_1"));
    const [appointment = ""] = await emit("appointment.created", session("ses_1"));
    expect(
      (await context.request("DELETE", `/api/v1/webhooks/rules-engine/rules/${leads}`, { headers: as })).status,
    ).toBe(200);
    await drain();
    expect((await delivery(lead)).status).toBe("cancelled");
    expect(sentIds()).toEqual([appointment]);
  });

  test("a waiting delivery whose predecessor was erased with its event is released by the housekeeping", async () => {
    await createRule("lead.created", CRM, "per_session");
    const [first = ""] = await emit("lead.created", session("ses_1"));
    const [second = ""] = await emit("lead.created", session("ses_1"));
    const sql = await testSql(context.deps);
    // What an erasure does: the event goes, its delivery with it.
    await sql.run("DELETE FROM events WHERE id = (SELECT event_id FROM deliveries WHERE id = ?)", first);
    expect((await delivery(second)).waiting?.reason).toBe(`waits for ${first} (gone)`);
    const housekeeping = createHousekeeping(context.deps, { checkpointElsewhere: true });
    housekeeping.runInBackground();
    await housekeeping.settled();
    expect(await delivery(second)).toMatchObject({ status: "pending", waiting: null });
    await drain();
    expect(sentIds()).toEqual([second]);
  });

  test("events of one stream enqueued at the same time form one chain: one pending, each other waiting behind a different one", async () => {
    await createRule("lead.created", CRM, "per_session");
    const emitted = (await Promise.all(Array.from({ length: 8 }, () => emit("lead.created", session("ses_1"))))).flat();
    const sql = await testSql(context.deps);
    const rows = await sql.all<{ id: string; status: string; waits_for: string | null }>(
      "SELECT id, status, waits_for FROM deliveries ORDER BY id",
    );
    expect(rows.map((row) => row.id).sort()).toEqual([...emitted].sort());
    expect(rows.filter((row) => row.status === "pending")).toHaveLength(1);
    const waitedFor = rows.flatMap((row) => (row.waits_for === null ? [] : [row.waits_for]));
    expect(new Set(waitedFor).size).toBe(7);
    await drain();
    expect(new Set(sentIds()).size).toBe(8);
    expect(sentIds()).toHaveLength(8);
  });
});

describe("the rule's ordering field", () => {
  test("defaults to none, is set on create and PATCH and shown by GET", async () => {
    const ruleId = await createRule("lead.created", CRM);
    const path = `/api/v1/webhooks/rules-engine/rules/${ruleId}`;
    expect((await (await context.request("GET", path, { headers: as })).json()).ordering).toBe("none");
    const patched = await context.request("PATCH", path, { body: { ordering: "per_session" }, headers: as });
    expect(patched.status).toBe(200);
    expect((await patched.json()).ordering).toBe("per_session");
    expect((await (await context.request("GET", path, { headers: as })).json()).ordering).toBe("per_session");
  });

  test("the OpenAPI document offers none and per_session on create and PATCH", async () => {
    const document = await openApiDocument(context);
    const bodyOf = (path: string, method: string) =>
      document.paths[path]?.[method]?.requestBody?.content["application/json"]?.schema.properties?.ordering;
    for (const [path, method] of [
      ["/api/v1/webhooks/rules-engine/rules", "post"],
      ["/api/v1/webhooks/rules-engine/rules/{id}", "patch"],
    ] as const) {
      const ordering = bodyOf(path, method);
      expect(ordering?.enum).toEqual(["none", "per_session"]);
    }
  });

  test("a bad ordering answers 422 on create and on PATCH", async () => {
    const created = await context.request("POST", "/api/v1/webhooks/rules-engine/rules", {
      body: { name: "crm", event: "lead.created", url: CRM, secret: "whsec_0123456789abcdef", ordering: "fifo" },
      headers: as,
    });
    expect(created.status).toBe(422);
    expect(await created.json()).toMatchObject({ error: "validation_failed" });
    const ruleId = await createRule("lead.created", CRM);
    const patched = await context.request("PATCH", `/api/v1/webhooks/rules-engine/rules/${ruleId}`, {
      body: { ordering: 1 },
      headers: as,
    });
    expect(patched.status).toBe(422);
  });
});
