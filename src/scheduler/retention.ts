import type { Deps } from "../deps.ts";
import { purgeOldAnalyticsEvents } from "../analytics/purge-analytics.ts";
import { listTenantRetention, purgeInactiveSessions } from "../chat/purge-chat-data.ts";
import { storageTroubleOf } from "../db/storage-errors.ts";
import { purgeSpentDeliveries, purgeSpentEvents } from "../webhooks/purge-spent-events.ts";

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  /** Rows per DELETE: each batch is one short write, so a request never waits long behind it. */
  batchSize?: number;
  /** Batches per kind of data per sweep; a backlog larger than this is finished by later sweeps. */
  maxBatches?: number;
}

export interface RetentionReport {
  deliveries: number;
  events: number;
  sessions: number;
  analyticsEvents: number;
  /** False when a kind hit maxBatches, or another process held the write lock: the next sweep continues. */
  complete: boolean;
}

type RetentionDeps = Pick<Deps, "store" | "clock" | "config">;

/** Another process holds the write lock: this sweep stops here, the next one carries on. */
class LockBusy extends Error {}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One retention sweep, run by the scheduler's housekeeping, never on a request: finished
 * deliveries (with their attempt logs) and then spent events past PARLEY_EVENT_RETENTION, then
 * each tenant's chat sessions and analytics past its bot config's retention. Work is cut into
 * batches of `batchSize` rows and yields to the event loop between batches, so requests and
 * webhook sends interleave with a large backlog instead of waiting for all of it.
 */
export async function sweepRetention(deps: RetentionDeps, options: RetentionOptions = {}): Promise<RetentionReport> {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 20;
  const report: RetentionReport = { deliveries: 0, events: 0, sessions: 0, analyticsEvents: 0, complete: true };

  const drain = async (batch: () => number | Promise<number>): Promise<number> => {
    let total = 0;
    for (let round = 0; round < maxBatches; round++) {
      const deleted = await runBatch(batch);
      total += deleted;
      if (deleted < batchSize) return total;
      await nextTurn();
    }
    report.complete = false;
    return total;
  };

  try {
    const now = deps.clock.now();
    const eventCutoff = now - deps.config.eventRetentionMs;
    // Deliveries first: an event is spent only once none of its deliveries is left.
    report.deliveries = await drain(() => purgeSpentDeliveries(deps, eventCutoff, batchSize));
    report.events = await drain(() => purgeSpentEvents(deps, eventCutoff, batchSize));
    for (const tenant of await listTenantRetention(deps)) {
      const { chatDays, analyticsDays } = tenant;
      if (chatDays !== null)
        report.sessions += await drain(() =>
          purgeInactiveSessions(deps, tenant.tenantId, now - chatDays * DAY_MS, batchSize),
        );
      if (analyticsDays !== null)
        report.analyticsEvents += await drain(() =>
          purgeOldAnalyticsEvents(deps, tenant.tenantId, now - analyticsDays * DAY_MS, batchSize),
        );
    }
  } catch (error) {
    if (!(error instanceof LockBusy)) throw error;
    report.complete = false;
  }
  return report;
}

async function runBatch(batch: () => number | Promise<number>): Promise<number> {
  try {
    return await batch();
  } catch (error) {
    // The server's connection never waits inside SQLite for a lock (src/db/write-lock.ts); a
    // purge is never urgent, so while a CLI or a backup holds the lock it waits for the next run.
    if (storageTroubleOf(error) === "busy") throw new LockBusy();
    throw error;
  }
}
