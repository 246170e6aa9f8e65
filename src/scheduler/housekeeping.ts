import type { Deps } from "../deps.ts";
import { purgeOldPaymentEvents } from "../integrations/payments.ts";
import { purgeOldWhatsappMessages } from "../integrations/whatsapp.ts";
import { sweepRetention } from "./retention.ts";
import { catchUpSearchIndex } from "../frontdesk/search-index.ts";
import { syncDueSources } from "../knowledge/scheduled-sync.ts";
import { embedderForTenant } from "../assistant/settings.ts";

export interface Housekeeping {
  /** Starts a run unless one is still going: purges, the retention sweep, the WAL checkpoint. */
  runInBackground(): void;
  /** Resolves when the run and the sweep in progress, if any, have ended. */
  settled(): Promise<void>;
}

/**
 * The scheduler's periodic housekeeping: expired dead letters, old provider message ids and
 * expired counters are purged, stranded ordered deliveries released and the inbox search index
 * caught up (one instance at a time on PostgreSQL), the retention sweep and the knowledge
 * sources' re-crawl run in the background (one of each at a time), and unless the server
 * checkpoints on a thread of its own, the WAL is checkpointed.
 */
export function createHousekeeping(deps: Deps, options: { checkpointElsewhere?: boolean }): Housekeeping {
  let run: Promise<void> | null = null;
  let retention: Promise<void> | null = null;
  let knowledgeSync: Promise<void> | null = null;

  // Knowledge sources due for their scheduled re-crawl (one instance at a time on PostgreSQL).
  function syncKnowledgeInBackground(): void {
    if (knowledgeSync) return;
    knowledgeSync = deps.store.storage
      .exclusively("knowledge-sync", () => syncDueSources(deps, (tenantId) => embedderForTenant(deps, tenantId)))
      .then(() => undefined)
      .catch((error: unknown) => deps.log.error({ msg: "knowledge sync failed", error: String(error) }))
      .finally(() => {
        knowledgeSync = null;
      });
  }

  function sweepRetentionInBackground(): void {
    if (retention) return;
    retention = deps.store.storage
      .exclusively("retention", () => sweepRetention(deps))
      .then((report) => {
        if (!report) return; // another instance is sweeping
        const purged = report.deliveries + report.events + report.sessions + report.analyticsEvents;
        if (purged > 0) deps.log.info({ msg: "retention purge", ...report });
      })
      .catch((error: unknown) => deps.log.error({ msg: "retention purge failed", error: String(error) }))
      .finally(() => {
        retention = null;
      });
  }

  async function maintain(): Promise<void> {
    try {
      const now = deps.clock.now();
      // With several instances on one PostgreSQL database, one of them purges at a time.
      await deps.store.storage.exclusively("housekeeping", async () => {
        const purged = await deps.store.deadLetters.purgeExpiredDeadLetters(now);
        if (purged > 0) deps.log.info({ msg: "purged expired dead letters", count: purged });
        await purgeOldPaymentEvents(deps, now);
        await purgeOldWhatsappMessages(deps, now);
        await deps.store.counters?.purgeExpired(now);
        // An ordered delivery whose predecessor was erased with its event would wait for ever.
        const released = await deps.store.deliveries.releaseStrandedWaiters(now);
        if (released > 0) {
          deps.log.info({ msg: "released ordered deliveries whose predecessor is gone", count: released });
          deps.deliveriesEnqueued.notify();
        }
        await catchUpSearchIndex(deps);
      });
      sweepRetentionInBackground();
      syncKnowledgeInBackground();
      // Keeps the WAL from growing without bound under steady writes; PASSIVE never blocks writers.
      if (!options.checkpointElsewhere) await deps.store.maintenance.checkpoint();
    } catch (error) {
      deps.log.error({ msg: "scheduler maintenance failed", error: String(error) });
    }
  }

  return {
    runInBackground() {
      if (run) return;
      run = maintain().finally(() => {
        run = null;
      });
    },
    async settled() {
      await run;
      await retention;
      await knowledgeSync;
    },
  };
}
