import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
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

const statements = preparedFor((sqlite) => ({
  insertEvent: sqlite.prepare("INSERT INTO events (id, tenant_id, event, data, confidence, occurred_at) VALUES (?, ?, ?, ?, ?, ?)"),
  matchingRules: sqlite.prepare<{ id: string; url: string }, [string, string, number]>(
    `SELECT id, url FROM webhook_rules
     WHERE tenant_id = ? AND event = ? AND active = 1 AND (min_confidence IS NULL OR min_confidence <= ?)
     ORDER BY id`,
  ),
  oneRule: sqlite.prepare<{ id: string; url: string }, [string, string]>("SELECT id, url FROM webhook_rules WHERE id = ? AND tenant_id = ?"),
  insertDelivery: sqlite.prepare(
    `INSERT INTO deliveries (id, tenant_id, event_id, rule_id, event, url, status, attempts, cycle, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, 1, ?, ?, ?)`,
  ),
}));

/**
 * The transactional outbox: records the event and one due delivery per matching rule. It
 * must run inside the caller's write transaction, so the deliveries commit or roll back
 * together with the change that caused the event — a lead is never saved without its
 * webhook, nor a webhook sent for a lead that was rolled back.
 */
export function emitEvent(deps: Deps, input: EmitEventInput): EmittedEvent {
  if (!deps.sqlite.inTransaction) throw new Error("emitEvent must run inside the caller's transaction");
  const now = deps.clock.now();
  const sql = statements(deps.sqlite);
  const data = input.confidence === undefined || "confidence" in input.data ? input.data : { ...input.data, confidence: input.confidence };
  const eventId = newId("evt", now);
  sql.insertEvent.run(eventId, input.tenantId, input.event, JSON.stringify(data), input.confidence ?? null, now);

  const rules = input.onlyRuleId
    ? sql.oneRule.all(input.onlyRuleId, input.tenantId)
    : sql.matchingRules.all(input.tenantId, input.event, input.confidence ?? 1);
  const deliveryIds = rules.map((rule) => {
    const webhookId = newId("wh", now);
    sql.insertDelivery.run(webhookId, input.tenantId, eventId, rule.id, input.event, rule.url, now, now, now);
    return webhookId;
  });
  // Listeners run after the caller's synchronous transaction has committed (they only schedule work).
  if (deliveryIds.length > 0) queueMicrotask(() => deps.deliveriesEnqueued.notify());
  return { eventId, deliveryIds };
}
