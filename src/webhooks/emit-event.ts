import type { Deps } from "../deps.ts";
import type { DeliveryTarget, Transaction } from "../db/store.ts";
import { newId } from "../lib/ids.ts";
import type { EventData, EventName } from "./events.ts";

export interface EmitEventInput {
  tenantId: string;
  event: EventName;
  data: EventData;
  /** In [0,1] for decisions the bot made; rules with min_confidence compare against it (absent = 1). */
  confidence?: number;
  /** Enqueue for this rule only, whatever it matches (the rule test endpoint). */
  onlyRuleId?: string;
}

export interface EmittedEvent {
  eventId: string;
  deliveryIds: string[];
}

/** The stored data: `confidence` joins it for the receiver unless the data already says it. */
function eventDataJson(input: EmitEventInput): string {
  const data = input.confidence === undefined || "confidence" in input.data ? input.data : { ...input.data, confidence: input.confidence };
  return JSON.stringify(data);
}

/**
 * The transactional outbox: records the event and one due delivery per matching rule, through
 * the caller's transaction, so the deliveries commit or roll back together with the change
 * that caused the event — a lead is never saved without its webhook, nor a webhook sent for a
 * lead that was rolled back. The scheduler is woken after the commit (tx.onCommit), never
 * before: woken earlier, it would look for rows it cannot see yet and sleep a whole poll.
 */
export async function enqueueEvent(deps: Pick<Deps, "clock" | "deliveriesEnqueued">, tx: Transaction, input: EmitEventInput): Promise<EmittedEvent> {
  const now = deps.clock.now();
  const eventId = newId("evt", now);
  await tx.outbox.insertEvent({ id: eventId, tenantId: input.tenantId, event: input.event, data: eventDataJson(input), confidence: input.confidence ?? null, occurredAt: now });
  const targets: DeliveryTarget[] = input.onlyRuleId
    ? await tx.outbox.listRuleTarget(input.tenantId, input.onlyRuleId)
    : await tx.outbox.listMatchingTargets(input.tenantId, input.event, input.confidence ?? 1);
  const deliveryIds: string[] = [];
  for (const target of targets) {
    const webhookId = newId("wh", now);
    await tx.outbox.insertPendingDelivery({ id: webhookId, tenantId: input.tenantId, eventId, ruleId: target.id, event: input.event, url: target.url, now });
    deliveryIds.push(webhookId);
  }
  if (deliveryIds.length > 0) tx.onCommit(() => deps.deliveriesEnqueued.notify());
  return { eventId, deliveryIds };
}
