import { createHash } from "node:crypto";
import type { Transaction } from "../db/store.ts";
import type { EventData } from "./events.ts";

// Ordered delivery (docs/webhooks.md, "Ordered delivery"). The deliveries of one stream form a
// chain: the head is pending (due, retried as usual), every other one is `waiting` behind the
// one before it and not claimable. When a delivery ends — succeeded, dead-lettered, or
// cancelled because its rule is gone — the one waiting behind it is made due in the same
// transaction that records the end (src/db/{sqlite,postgres}/delivery-queue.ts): a crash
// leaves either both writes or neither, and the claim itself knows nothing of streams.

/**
 * The stream a delivery of an ordered rule belongs to: the tenant, the rule's URL and the chat
 * session, hashed into a short key. Rules with one URL share it, so a receiver gets a visitor's
 * events in the order they happened whatever rule sent them. null: the event has no session
 * (payments, subscription, quota), so it is not ordered.
 */
export function streamKeyOf(tenantId: string, url: string, data: EventData): string | null {
  const sessionId = data.session_id;
  if (typeof sessionId !== "string" || sessionId === "") return null;
  return createHash("sha256").update(`${tenantId}\n${url}\n${sessionId}`).digest("base64url");
}

/**
 * Where a delivery joining `streamKey` now goes: behind the stream's last unfinished delivery
 * (its id), or at the head (null: due at once). The caller holds the stream's lock
 * (tx.outbox.lockStreams) from before this look until COMMIT, so two deliveries joining at once
 * cannot both take the head or wait behind the same one.
 */
export function placeInStream(tx: Transaction, streamKey: string): Promise<string | null> {
  return tx.outbox.findStreamTail(streamKey);
}

/**
 * Takes the locks of the streams among `streamKeys` (nulls are unordered deliveries), all at
 * once: taken one by one, two transactions could take two streams' locks in opposite orders.
 */
export async function lockStreamsOf(tx: Transaction, streamKeys: ReadonlyArray<string | null>): Promise<void> {
  const ordered = streamKeys.filter((key): key is string => key !== null);
  if (ordered.length > 0) await tx.outbox.lockStreams(ordered);
}

/**
 * A dead ordered delivery re-triggered or recovered re-enters its stream at the end, behind
 * what is queued there now, rather than jump ahead of newer deliveries already waiting (or
 * being retried): the receiver gets it late, under its original webhook_id and timestamp.
 * Returns the id it waits behind, or null when it is due at once. The caller holds the
 * stream's lock (lockStreamsOf).
 */
export async function reenterStream(tx: Transaction, streamKey: string | null): Promise<string | null> {
  return streamKey === null ? null : placeInStream(tx, streamKey);
}
