import type { Deps } from "../deps.ts";
import type { Store } from "../db/store.ts";

/**
 * A new sitemap source's pages are imported after the request that added it has been answered
 * (up to 500 pages: minutes on a slow site). The source waits as `pending` with a lease: its
 * `next_sync_at` IMPORT_LEASE_MS ahead, moved forward as pages arrive. If the process ends
 * mid-import (killed, restarted), the lease runs out and the scheduled sync, which takes due
 * sources, imports it again from where it stood: pages already imported are only checked. While
 * the lease holds, no other instance's scheduled sync takes it.
 */
export const IMPORT_LEASE_MS = 60_000;

/** Imports running in this process, per store and source: what a caller waiting for one awaits. */
const RUNNING = new WeakMap<Store, Map<string, Promise<unknown>>>();

export type RenewLease = () => Promise<void>;

/**
 * Runs `work` (the import) without waiting for it; `renew` is for the work to call after each
 * page. A failing import is logged: the source stays pending until its lease runs out and the
 * schedule takes it.
 */
export function importInBackground<T>(
  deps: Deps,
  sourceId: string,
  work: (renew: RenewLease) => Promise<T>,
): Promise<T | null> {
  let renewAt = deps.clock.now() + IMPORT_LEASE_MS / 3;
  const renew = async () => {
    const now = deps.clock.now();
    if (now < renewAt) return;
    renewAt = now + IMPORT_LEASE_MS / 3;
    // Best effort: a lease that could not be moved only lets the schedule take the source sooner.
    await deps.store.knowledgeSources.extendImportLease(sourceId, now + IMPORT_LEASE_MS).catch(() => undefined);
  };
  const running = RUNNING.get(deps.store) ?? new Map<string, Promise<unknown>>();
  RUNNING.set(deps.store, running);
  const imported = work(renew)
    .catch((error: unknown) => {
      deps.log.error({ msg: "knowledge source import failed", sourceId, error: String(error) });
      return null;
    })
    .finally(() => running.delete(sourceId));
  running.set(sourceId, imported);
  return imported;
}

/** Resolves when this process's import of the source, if any, has ended. */
export async function importEnded(store: Store, sourceId: string): Promise<void> {
  await RUNNING.get(store)?.get(sourceId);
}
