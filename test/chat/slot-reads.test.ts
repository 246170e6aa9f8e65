import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createRuleEngine, initialConversationState } from "../../src/chat/engine/engine.ts";
import { handleMessage } from "../../src/chat/handle-message.ts";
import { configForSector } from "../../src/chat/engine/sector-templates.ts";
import type { Store, Transaction } from "../../src/db/store.ts";
import type { Deps } from "../../src/deps.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { requireTenant } from "../../src/tenants/find-tenant.ts";
import { buildDeps, closeDeps, type TestDeps } from "../helpers.ts";
import { NOW_MS } from "./engine/conversation.ts";

// The booked slots cost a query; a chat turn reads them only when the engine's answer depends on them.

const DENTAL = configForSector("dental-clinic");

describe("the rule engine without the booked slots", () => {
  const engine = createRuleEngine();
  const base = { config: DENTAL, state: initialConversationState(), nowMs: NOW_MS };

  test("answers a question that has nothing to do with booking, exactly as with them", () => {
    const message = "Do you take insurance?";
    const withoutSlots = engine.replyUnlessSlotsNeeded?.({ ...base, message });
    expect(withoutSlots).not.toBeNull();
    expect(withoutSlots).toEqual(engine.reply({ ...base, message, takenSlotStarts: [] }));
  });

  test("says it needs them for a booking, and with them the taken time is not offered", () => {
    const message = "Can I book Monday at 10am?";
    expect(engine.replyUnlessSlotsNeeded?.({ ...base, message })).toBeNull();
    const mondayTen = Date.UTC(2026, 0, 19, 15, 0);
    expect(engine.reply({ ...base, message, takenSlotStarts: [] }).reply.text).toContain("is available");
    expect(engine.reply({ ...base, message, takenSlotStarts: [mondayTen] }).reply.text).not.toContain("is available");
  });
});

describe("a chat turn reads the booked slots only when it needs them", () => {
  let deps: TestDeps;
  let reads: number;

  /** The store with every `captures.listAppointmentStarts` (in or out of a transaction) counted. */
  function countingSlotReads(store: Store): Store {
    const counted = <T extends Pick<Store, "captures">>(queries: T): T =>
      new Proxy(queries, {
        get: (target, key) =>
          key === "captures"
            ? new Proxy(target.captures, {
                get: (captures, name) => {
                  const value = Reflect.get(captures, name);
                  if (name !== "listAppointmentStarts" || typeof value !== "function") return value;
                  return (...args: Parameters<Store["captures"]["listAppointmentStarts"]>) => {
                    reads++;
                    return captures.listAppointmentStarts(...args);
                  };
                },
              })
            : Reflect.get(target, key),
      });
    return new Proxy(counted(store), {
      get: (target, key) =>
        key === "transaction"
          ? <T>(work: (tx: Transaction) => Promise<T>) => store.transaction((tx) => work(counted(tx)))
          : Reflect.get(target, key),
    });
  }

  beforeEach(() => {
    deps = buildDeps();
    reads = 0;
  });
  afterEach(() => closeDeps(deps));

  async function say(counted: Deps, tenantId: string, text: string, sessionId?: string) {
    return handleMessage(counted, { tenant: await requireTenant(counted, tenantId), sessionId, text, channel: "api" });
  }

  test("none for questions and small talk; one per booking step, and a time another visitor booked is refused", async () => {
    const counted: Deps = { ...deps, store: countingSlotReads(deps.store) };
    const tenant = await createTenant(deps, { name: "Clinic", sector: "dental-clinic", plan: "business" });
    const first = await say(counted, tenant.id, "Hi there!");
    await say(counted, tenant.id, "Do you take insurance?", first.session_id);
    await say(counted, tenant.id, "Where can I park?", first.session_id);
    expect(reads).toBe(0);

    // Ana books Monday at 10am (within the clinic's hours, whatever the test clock's weekday).
    const ana = await say(counted, tenant.id, "I'm Ana Lopez, 415-555-0132, ana@example.com");
    const asked = await say(counted, tenant.id, "Can I come in on Monday at 10am?", ana.session_id);
    expect(reads).toBe(1);
    expect(asked.reply?.text).toContain("is available");
    const booked = await say(counted, tenant.id, "yes", ana.session_id);
    expect(booked.reply?.text).toContain("You're booked in");
    expect(reads).toBe(2);

    // Ben asks for the same time: the read slots include Ana's booking.
    const ben = await say(counted, tenant.id, "Can I come in on Monday at 10am?");
    expect(ben.reply?.text).not.toContain("is available");
    expect(reads).toBe(3);
  });
});
