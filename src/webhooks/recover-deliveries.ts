import type { Deps } from "../deps.ts";
import { parseIsoTime, toIso } from "../lib/clock.ts";
import { invalidField } from "../lib/validate.ts";
import { notFound } from "../lib/app-error.ts";
import { getRuleRow } from "./rules.ts";
import { lockStreamsOf, reenterStream } from "./ordered-streams.ts";

export interface RecoveredDeliveries {
  rule_id: string;
  since: string;
  /** Deliveries put back on a fresh cycle: the dead ones and those waiting for a retry. */
  recovered: number;
}

/** An ISO 8601 date or time, not in the future. */
function parseSince(since: string, now: number): number {
  const ms = parseIsoTime(since);
  if (ms === null) throw invalidField("since", "must be an ISO 8601 time such as 2026-01-15T09:00:00Z");
  if (ms > now) throw invalidField("since", "must not be in the future");
  return ms;
}

/**
 * After a receiver is fixed: every delivery of the rule created since `since` that dead-lettered
 * or is waiting for a retry starts a fresh cycle now, with the same webhook_id (receivers
 * dedupe on it). Succeeded and cancelled deliveries, those of other rules, and one being sent
 * at this moment are left alone. The dead letters go in the same transaction; a cycle that
 * fails again writes a new one.
 */
export async function recoverRuleDeliveries(
  deps: Deps,
  asTenant: string | null,
  ruleId: string,
  since: string,
): Promise<RecoveredDeliveries> {
  const now = deps.clock.now();
  const sinceMs = parseSince(since, now);
  // null: the administrator's CLI, for the rule's own tenant; a tenant sees only its rules.
  const tenantId = asTenant ?? (await deps.store.webhookRules.findRuleTenantId(ruleId));
  if (tenantId === null) throw notFound("rule");
  await getRuleRow(deps, tenantId, ruleId);
  const recovered = await deps.store.transaction(async (tx) => {
    await tx.deadLetters.deleteRuleDeadLettersSince(tenantId, ruleId, sinceMs);
    let count = await tx.deadLetters.recoverRuleDeliveries(tenantId, ruleId, sinceMs, now);
    // Dead ordered deliveries re-enter their streams one by one, oldest first, each behind what
    // is queued there by then (src/webhooks/ordered-streams.ts).
    const deadOrdered = await tx.deadLetters.listRuleDeadStreamDeliveries(tenantId, ruleId, sinceMs);
    await lockStreamsOf(
      tx,
      deadOrdered.map((dead) => dead.streamKey),
    );
    for (const dead of deadOrdered) {
      if (await tx.deadLetters.restartDeadDelivery(dead.id, now, await reenterStream(tx, dead.streamKey))) count++;
    }
    if (count > 0) tx.onCommit(() => deps.deliveriesEnqueued.notify());
    return count;
  });
  return { rule_id: ruleId, since: toIso(sinceMs), recovered };
}
