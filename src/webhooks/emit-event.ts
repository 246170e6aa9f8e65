import type { Deps } from "../deps.ts";
import type { ClaimedDelivery, DeliveryTarget, Transaction } from "../db/store.ts";
import { newId } from "../lib/ids.ts";
import type { EventData, EventName } from "./events.ts";
import { lockStreamsOf, placeInStream, streamKeyOf } from "./ordered-streams.ts";

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
  const data =
    input.confidence === undefined || "confidence" in input.data
      ? input.data
      : { ...input.data, confidence: input.confidence };
  return JSON.stringify(data);
}

/**
 * The transactional outbox: records the event and one due delivery per matching rule, through
 * the caller's transaction, so the deliveries commit or roll back together with the change
 * that caused the event — a lead is never saved without its webhook, nor a webhook sent for a
 * lead that was rolled back. The scheduler hears of them after the commit (tx.onCommit), never
 * before: earlier, it would look for rows it cannot see yet, or send a webhook for a rollback.
 *
 * While this process runs a scheduler, the deliveries are written leased to it and handed over
 * after COMMIT (src/webhooks/delivery-handoff.ts): no claim of their own. Otherwise they are
 * written due, and the scheduler (here or, on PostgreSQL, on any instance) is woken to claim them.
 * A delivery of an ordered rule that has an earlier one of its stream still unfinished is written
 * waiting behind it instead (src/webhooks/ordered-streams.ts): neither due nor handed over.
 */
export async function enqueueEvent(
  deps: Pick<Deps, "clock" | "deliveriesEnqueued" | "deliveryHandoff">,
  tx: Transaction,
  input: EmitEventInput,
): Promise<EmittedEvent> {
  const now = deps.clock.now();
  const eventId = newId("evt", now);
  const data = eventDataJson(input);
  await tx.outbox.insertEvent({
    id: eventId,
    tenantId: input.tenantId,
    event: input.event,
    data,
    confidence: input.confidence ?? null,
    occurredAt: now,
  });
  const targets: DeliveryTarget[] = input.onlyRuleId
    ? await tx.outbox.listRuleTarget(input.tenantId, input.onlyRuleId)
    : await tx.outbox.listMatchingTargets(input.tenantId, input.event, input.confidence ?? 1);
  if (targets.length === 0) return { eventId, deliveryIds: [] };
  const receiver = deps.deliveryHandoff?.receiver ?? null;
  const lease = receiver ? { token: newId("att", now), until: now + receiver.leaseMs } : null;
  const deliveryIds: string[] = [];
  const handed: ClaimedDelivery[] = [];
  const streamKeys = targets.map((target) =>
    target.ordering === "per_session" ? streamKeyOf(input.tenantId, target.url, input.data) : null,
  );
  await lockStreamsOf(tx, streamKeys);
  for (const [index, target] of targets.entries()) {
    const webhookId = newId("wh", now);
    const streamKey = streamKeys[index] ?? null;
    // Two rules with one URL put both deliveries in one stream: the second waits behind the first.
    const waitsFor = streamKey === null ? null : await placeInStream(tx, streamKey);
    await tx.outbox.insertPendingDelivery({
      id: webhookId,
      tenantId: input.tenantId,
      eventId,
      ruleId: target.id,
      event: input.event,
      url: target.url,
      now,
      lease: waitsFor === null ? lease : null,
      streamKey,
      waitsFor,
    });
    deliveryIds.push(webhookId);
    if (lease && waitsFor === null) {
      handed.push({
        id: webhookId,
        tenantId: input.tenantId,
        ruleId: target.id,
        event: input.event,
        attempts: 0,
        cycle: 1,
        leaseToken: lease.token,
        url: target.url,
        secret: target.secret,
        data,
        occurredAt: now,
        previousSecret: target.previousSecret,
        previousSecretUntil: target.previousSecretUntil,
        rateLimitPerS: target.rateLimitPerS,
        streamKey,
      });
    }
  }
  tx.onCommit(() => (receiver ? receiver.accept(handed) : deps.deliveriesEnqueued.notify()));
  return { eventId, deliveryIds };
}
