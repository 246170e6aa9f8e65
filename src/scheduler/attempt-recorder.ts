import { storageTroubleOf } from "../db/storage-errors.ts";
import type { RecordedAttempt } from "../db/store.ts";
import type { Deps } from "../deps.ts";
import type { DeliveryMetrics } from "./metrics.ts";

/** How soon results that could not be recorded (lock held elsewhere, disk full) are tried again. */
const RECORD_RETRY_MS = 250;

export interface AttemptRecorder {
  /** Queues a finished attempt; the queue is recorded after this turn of the event loop. */
  add(attempt: RecordedAttempt): void;
  /** Records every finished attempt so far in one transaction. */
  flush(): Promise<void>;
}

/**
 * Records finished attempts in batches: every attempt that finished in one turn of the event
 * loop goes into one store transaction, instead of one transaction per send.
 */
export function createAttemptRecorder(deps: Deps, metrics: DeliveryMetrics, isRunning: () => boolean): AttemptRecorder {
  let finished: RecordedAttempt[] = [];
  let flushQueued = false;

  const queueFlush = (): void => {
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(() => void flush());
  };

  async function flush(): Promise<void> {
    flushQueued = false;
    if (finished.length === 0) return;
    const batch = finished;
    finished = [];
    try {
      const outcomes = await deps.store.deliveryQueue.recordAttempts(batch);
      outcomes.forEach((outcome, index) => metrics.observe(outcome, batch[index]?.result.durationMs ?? 0));
    } catch (error) {
      if (storageTroubleOf(error) && isRunning()) {
        // A held lock or a full disk passes: keep the results and record them a little later,
        // rather than let the leases run out and send every one of them again.
        finished = batch.concat(finished);
        setTimeout(queueFlush, RECORD_RETRY_MS);
        return;
      }
      // Not recorded means the lease expires and the attempt is made again: at least once, never lost.
      deps.log.error({ msg: "recording delivery attempts failed", count: batch.length, error: String(error) });
    }
  }

  return {
    add(attempt) {
      finished.push(attempt);
      queueFlush();
    },
    flush,
  };
}
