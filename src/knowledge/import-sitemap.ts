import type { Deps } from "../deps.ts";
import type { KnowledgeSourceRow, Store } from "../db/store.ts";
import type { SitemapPages } from "./sitemap.ts";
import type { FetchOptions } from "./sync-source.ts";

/**
 * A new sitemap source's pages are imported after the request that added it has been answered
 * (up to 500 pages: minutes on a slow site). The source waits as `pending` with a lease: its
 * `next_sync_at` IMPORT_LEASE_MS ahead, moved forward while this process runs or queues its
 * import. If the process ends (killed, restarted), the lease runs out and the scheduled sync,
 * which takes due sources, imports it again from where it stood: pages already imported are only
 * checked. While the lease holds, no other instance's scheduled sync takes it.
 */
export const IMPORT_LEASE_MS = 60_000;

/**
 * Imports running at once in one process: each fetches up to 4 pages at a time, so a few keep
 * the process's other work (chat, deliveries) ahead of crawling.
 */
export const MAX_RUNNING_IMPORTS = 3;

export type RenewLease = () => Promise<void>;

/** The import itself: the source as it stands when the import starts, and how to fetch it. */
export type ImportRun = (source: KnowledgeSourceRow, options: FetchOptions) => Promise<unknown>;

interface QueuedImport {
  sourceId: string;
  tenantId: string;
  /** The sitemap's pages as read when it was added; dropped if the import has to wait. */
  listed: SitemapPages | undefined;
  run: ImportRun;
  ended: () => void;
}

/**
 * One process's imports, per store. At most MAX_RUNNING_IMPORTS run, never two of one tenant.
 * Tenants with imports waiting stand in `line` in turn: the first that runs nothing starts its
 * oldest import and goes to the back if it has more, so a tenant with fifty sitemaps queued delays
 * another tenant's first by at most one import of its own.
 */
interface ImportQueue {
  running: Map<string, string>; // source id -> tenant id
  waiting: Map<string, QueuedImport[]>; // tenant id -> its imports, oldest first
  line: string[];
  ended: Map<string, Promise<void>>; // source id -> its import's end, running or waiting
  renewAt: number;
}

const QUEUES = new WeakMap<Store, ImportQueue>();

function queueOf(store: Store): ImportQueue {
  let queue = QUEUES.get(store);
  if (!queue) {
    queue = { running: new Map(), waiting: new Map(), line: [], ended: new Map(), renewAt: 0 };
    QUEUES.set(store, queue);
  }
  return queue;
}

/**
 * Moves the lease of every import of this process, running or waiting, one lease ahead. Called
 * after each page a running import fetches: an import waits only while another runs, so while
 * this process makes progress no other takes its sources. Best effort: a lease that could not be
 * moved only lets the schedule take its source sooner.
 */
async function renewLeases(deps: Deps, queue: ImportQueue): Promise<void> {
  const now = deps.clock.now();
  if (now < queue.renewAt) return;
  queue.renewAt = now + IMPORT_LEASE_MS / 3;
  const waiting = [...queue.waiting.values()].flat().map((queued) => queued.sourceId);
  for (const sourceId of [...queue.running.keys(), ...waiting])
    await deps.store.knowledgeSources.extendImportLease(sourceId, now + IMPORT_LEASE_MS).catch(() => undefined);
}

async function runImport(deps: Deps, queue: ImportQueue, queued: QueuedImport): Promise<void> {
  try {
    await deps.store.knowledgeSources.extendImportLease(queued.sourceId, deps.clock.now() + IMPORT_LEASE_MS);
    const source = await deps.store.knowledgeSources.findSource(queued.tenantId, queued.sourceId);
    // Deleted while it waited, or imported meanwhile ("sync now", the schedule after a lapsed lease): nothing to do.
    if (source?.status === "pending")
      await queued.run(source, { listed: queued.listed, onPage: () => renewLeases(deps, queue) });
  } catch (error) {
    // The source stays pending until its lease runs out and the schedule takes it.
    deps.log.error({ msg: "knowledge source import failed", sourceId: queued.sourceId, error: String(error) });
  } finally {
    queue.running.delete(queued.sourceId);
    queue.ended.delete(queued.sourceId);
    queued.ended();
    startWaitingImports(deps, queue);
  }
}

/** Starts waiting imports, tenants in turn, while the process has room and a waiting tenant runs nothing. */
function startWaitingImports(deps: Deps, queue: ImportQueue): void {
  while (queue.running.size < MAX_RUNNING_IMPORTS) {
    const busy = new Set(queue.running.values());
    const turn = queue.line.findIndex((tenantId) => !busy.has(tenantId));
    if (turn < 0) return;
    const [tenantId = ""] = queue.line.splice(turn, 1);
    const imports = queue.waiting.get(tenantId) ?? [];
    const next = imports.shift();
    if (imports.length > 0) queue.line.push(tenantId);
    else queue.waiting.delete(tenantId);
    if (!next) continue;
    queue.running.set(next.sourceId, tenantId);
    void runImport(deps, queue, next);
  }
}

/**
 * Queues the import of a new sitemap source without waiting for it; it starts at once when the
 * process and its tenant have room. An import that has to wait reads its sitemap again when it
 * starts, so a tenant's many queued sources hold no page lists. A failing import is logged.
 */
export function importInBackground(
  deps: Deps,
  source: Pick<KnowledgeSourceRow, "id" | "tenantId">,
  listed: SitemapPages,
  run: ImportRun,
): Promise<void> {
  const queue = queueOf(deps.store);
  const { promise, resolve } = Promise.withResolvers<void>();
  const queued: QueuedImport = { sourceId: source.id, tenantId: source.tenantId, listed, run, ended: resolve };
  queue.ended.set(source.id, promise);
  const imports = queue.waiting.get(source.tenantId);
  if (imports) imports.push(queued);
  else {
    queue.waiting.set(source.tenantId, [queued]);
    queue.line.push(source.tenantId);
  }
  startWaitingImports(deps, queue);
  if (!queue.running.has(source.id)) queued.listed = undefined;
  return promise;
}

/** Resolves when this process's import of the source, if any, has ended (waiting for its turn included). */
export async function importEnded(store: Store, sourceId: string): Promise<void> {
  await QUEUES.get(store)?.ended.get(sourceId);
}
