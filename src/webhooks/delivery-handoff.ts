import type { ClaimedDelivery } from "../db/store.ts";

/**
 * The scheduler running in this process, as an enqueue sees it (emit-event.ts). A delivery
 * enqueued while one runs is written already leased to it, and handed over after COMMIT, so
 * it is sent without a claim of its own. Under chat load that claim was a write transaction
 * per webhook and a wait before the POST (docs/hot-path.md). The lease is what a claim would have taken: if this process dies before the send, the
 * row is due again when the lease runs out, and any scheduler sends it then.
 */
export interface DeliveryReceiver {
  /** How long a lease lasts: longer than a whole attempt. */
  readonly leaseMs: number;
  /** After COMMIT: sends the deliveries it has room for (the fair share's caps) and makes the rest due again. */
  accept(deliveries: ClaimedDelivery[]): void;
}

/** Where the running scheduler is found; empty in a process that runs none (a CLI command). */
export interface DeliveryHandoff {
  receiver: DeliveryReceiver | null;
}

export function createDeliveryHandoff(): DeliveryHandoff {
  return { receiver: null };
}
