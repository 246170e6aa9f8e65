import type { Deps } from "../deps.ts";
import type { StoreQueries } from "../db/store.ts";
import { formatDuration, parseDuration } from "../lib/durations.ts";
import { invalidField } from "../lib/validate.ts";

/** URL and sitemap sources are fetched again daily unless the tenant chooses otherwise. */
export const DEFAULT_SYNC_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** More often than hourly would make the bot a crawler of its own owner's site. */
export const MIN_SYNC_INTERVAL_MS = 60 * 60 * 1000;
export const MAX_SYNC_INTERVAL_MS = 30 * 24 * 60 * 60 * 1000;

/** Milliseconds between a tenant's scheduled syncs, or null when its schedule is off. */
export async function syncIntervalOf(db: StoreQueries, tenantId: string): Promise<number | null> {
  const stored = await db.knowledgeSources.findSyncInterval(tenantId);
  return stored === undefined ? DEFAULT_SYNC_INTERVAL_MS : stored;
}

export interface SyncScheduleView {
  /** `"1d"`, `"12h"`…, or `"off"`. */
  sync_interval: string;
}

export const scheduleView = (intervalMs: number | null): SyncScheduleView => ({
  sync_interval: intervalMs === null ? "off" : formatDuration(intervalMs),
});

export async function getSyncSchedule(deps: Pick<Deps, "store">, tenantId: string): Promise<SyncScheduleView> {
  return scheduleView(await syncIntervalOf(deps.store, tenantId));
}

/**
 * Sets how often the tenant's URL and sitemap sources are fetched again ("off" stops it). Every
 * source is rescheduled at once: due one interval after its last fetch.
 */
export async function setSyncSchedule(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
  interval: string,
): Promise<SyncScheduleView> {
  let intervalMs: number | null = null;
  if (interval !== "off") {
    const parsed = parseDuration(interval);
    if (parsed === null || parsed < MIN_SYNC_INTERVAL_MS || parsed > MAX_SYNC_INTERVAL_MS) {
      throw invalidField(
        "sync_interval",
        `must be "off" or a duration from ${formatDuration(MIN_SYNC_INTERVAL_MS)} to ${formatDuration(MAX_SYNC_INTERVAL_MS)} (e.g. "12h", "1d", "7d")`,
      );
    }
    intervalMs = parsed;
  }
  await deps.store.transaction(async (tx) => {
    await tx.knowledgeSources.upsertSyncInterval(tenantId, intervalMs, deps.clock.now());
    if (intervalMs === null) await tx.knowledgeSources.unscheduleSources(tenantId);
    else await tx.knowledgeSources.rescheduleSources(tenantId, intervalMs);
  });
  return scheduleView(intervalMs);
}
