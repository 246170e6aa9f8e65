import type { Deps } from "../deps.ts";
import type { KnowledgeSourceRow } from "../db/store.ts";
import type { EmbedderOf } from "./embedder.ts";
import { syncSource } from "./sources.ts";

/** Sources one run looks at: the next housekeeping run takes the rest, so a run always ends soon. */
export const SYNCS_PER_RUN = 16;
/** Sources synced at once, each a different tenant's. */
const CONCURRENT_SYNCS = 2;

/**
 * Due sources in turns by tenant (its first due, then every tenant's second…), so a tenant with
 * a hundred due sources does not hold back another's one.
 */
export function takeTurnsByTenant(due: readonly KnowledgeSourceRow[]): KnowledgeSourceRow[] {
  const queues = new Map<string, KnowledgeSourceRow[]>();
  for (const source of due) queues.set(source.tenantId, [...(queues.get(source.tenantId) ?? []), source]);
  const ordered: KnowledgeSourceRow[] = [];
  for (let round = 0; ordered.length < due.length; round++) {
    for (const queue of queues.values()) if (queue[round]) ordered.push(queue[round] as KnowledgeSourceRow);
  }
  return ordered;
}

/**
 * The scheduled re-crawl: syncs the sources whose `next_sync_at` has come (by the injected
 * clock), tenants taking turns, two at a time and never two of one tenant together. It runs
 * beside the delivery loop, not in it: a slow site delays only other syncs, never a chat
 * turn or a webhook. A failing source records its error and the others go on. Returns how many
 * sources it synced.
 */
export async function syncDueSources(deps: Deps, embedderOf: EmbedderOf): Promise<number> {
  const due = takeTurnsByTenant(await deps.store.knowledgeSources.listDueSources(deps.clock.now(), SYNCS_PER_RUN));
  const busyTenants = new Set<string>();
  let synced = 0;
  // A worker that finds only a busy tenant's sources left stops; the worker syncing that tenant drains them.
  const worker = async () => {
    while (due.length > 0) {
      const index = due.findIndex((source) => !busyTenants.has(source.tenantId));
      if (index < 0) return;
      const [source] = due.splice(index, 1);
      if (!source) return;
      busyTenants.add(source.tenantId);
      try {
        await syncSource(deps, source, embedderOf);
        synced++;
      } catch (error) {
        // Already being synced ("sync now"), or deleted meanwhile: the next run sees it as it is then.
        deps.log.info({ msg: "scheduled knowledge sync skipped a source", sourceId: source.id, error: String(error) });
      } finally {
        busyTenants.delete(source.tenantId);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_SYNCS }, worker));
  return synced;
}
