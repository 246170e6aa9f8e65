import type { Deps } from "../deps.ts";
import type { KnowledgeSourceRow, KnowledgeSourceWithCount, Store } from "../db/store.ts";
import type { SourceKind, SourceStatus } from "../db/schema-knowledge.ts";
import type { EmbedderOf } from "./embedder.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { toPage, type Page } from "../lib/page.ts";
import { invalidField } from "../lib/validate.ts";
import { assertSourceRoom, insertSourceInRoom } from "./limits.ts";
import { fetchFailed } from "./fetch-page.ts";
import { importInBackground, IMPORT_LEASE_MS } from "./import-sitemap.ts";
import { collectSitemapPages, MAX_SITEMAP_PAGES, type SitemapPages } from "./sitemap.ts";
import { syncIntervalOf } from "./sync-schedule.ts";
import { type FetchOptions, fetchSource, PAGE_RESULTS, type PageOutcome, type SyncReport } from "./sync-source.ts";

export interface SourceView {
  source_id: string;
  kind: SourceKind;
  url: string | null;
  title: string | null;
  status: SourceStatus;
  last_error: string | null;
  etag: string | null;
  last_modified: string | null;
  last_synced_at: string | null;
  last_changed_at: string | null;
  next_sync_at: string | null;
  document_count: number;
  created_at: string;
  /** The last sync's counts per result, and (when `withPages`) each page's result. */
  report: { counts: SyncReport["counts"]; pages?: PageOutcome[] } | null;
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));

export function toSourceView(row: KnowledgeSourceWithCount, withPages: boolean): SourceView {
  const report = row.report ? (JSON.parse(row.report) as SyncReport) : null;
  return {
    source_id: row.id,
    kind: row.kind,
    url: row.url,
    title: row.title,
    status: row.status,
    last_error: row.lastError,
    etag: row.etag,
    last_modified: row.lastModified,
    last_synced_at: isoOrNull(row.lastFetchedAt),
    last_changed_at: isoOrNull(row.lastChangedAt),
    next_sync_at: isoOrNull(row.nextSyncAt),
    document_count: row.documentCount,
    created_at: toIso(row.createdAt),
    report: report && (withPages ? report : { counts: report.counts }),
  };
}

/** Page outcomes kept in a source's report: enough to see what happened, bounded in size. */
const MAX_REPORTED_PAGES = 1_000;

/** Sources being synced in this process, per store: a "sync now" during a scheduled sync waits for nothing and is refused. */
const SYNCING = new WeakMap<Store, Set<string>>();

function summarise(outcomes: PageOutcome[]): SyncReport {
  const counts = Object.fromEntries(PAGE_RESULTS.map((result) => [result, 0])) as SyncReport["counts"];
  for (const outcome of outcomes) counts[outcome.result]++;
  return { counts, pages: outcomes.slice(0, MAX_REPORTED_PAGES) };
}

/**
 * Syncs a URL or sitemap source now and records how it went: `failed` with the error when the
 * source itself (or every page it lists) could not be read, else `ok` when a document changed and
 * `unchanged` when none did, with failed pages summed up in `last_error`. Its next scheduled
 * sync is one tenant interval from now (none while the schedule is off).
 */
export async function syncSource(
  deps: Deps,
  source: KnowledgeSourceRow,
  embedderOf: EmbedderOf,
  options: FetchOptions = {},
): Promise<{ view: SourceView; error: unknown }> {
  if (source.kind === "upload")
    throw new AppError(
      "source_not_syncable",
      409,
      "An uploaded document has nothing to fetch; upload it again to change it.",
    );
  const running = SYNCING.get(deps.store) ?? new Set<string>();
  SYNCING.set(deps.store, running);
  if (running.has(source.id))
    throw new AppError(
      "sync_in_progress",
      409,
      "This source is being synced right now; its state shows the result when it ends.",
    );
  running.add(source.id);
  try {
    const embedder = await embedderOf(source.tenantId);
    const { validators, outcomes, error } = await fetchSource(deps, source, embedder, options);
    const now = deps.clock.now();
    const interval = await syncIntervalOf(deps.store, source.tenantId);
    const report = summarise(outcomes);
    const changed = report.counts.imported + report.counts.updated + report.counts.removed > 0;
    const failedPages = outcomes.filter((outcome) => outcome.result === "failed");
    const everyPageFailed =
      failedPages.length > 0 &&
      failedPages.length === outcomes.filter((outcome) => outcome.result !== "skipped").length;
    const status: SourceStatus = error || everyPageFailed ? "failed" : changed ? "ok" : "unchanged";
    const lastError = error
      ? error instanceof Error
        ? error.message
        : String(error)
      : failedPages.length > 0
        ? `${failedPages.length} of ${outcomes.length} pages failed; first: ${failedPages[0]?.reason}`
        : null;
    await deps.store.knowledgeSources.recordSourceSync({
      etag: validators.etag,
      lastModified: validators.lastModified,
      contentHash: validators.contentHash,
      id: source.id,
      status,
      lastError,
      lastFetchedAt: now,
      lastChangedAt: changed ? now : source.lastChangedAt,
      nextSyncAt: interval === null ? null : now + interval,
      // A failed source keeps the report of its last good sync: it still describes the documents.
      report: error && source.report ? source.report : JSON.stringify(report),
    });
    const row = await deps.store.knowledgeSources.findSource(source.tenantId, source.id);
    if (!row) throw notFound("source"); // deleted while it synced
    return { view: toSourceView(row, true), error };
  } finally {
    running.delete(source.id);
  }
}

export interface NewSource {
  kind: "url" | "sitemap";
  url: string;
  title?: string;
}

function checkedUrl(field: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField(field, "must be an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidField(field, "must be an http(s) URL");
  return url.href;
}

type NewSourceFields = Pick<KnowledgeSourceRow, "id" | "tenantId" | "kind" | "url" | "title" | "createdAt">;

/** A new source's row: `pending`, nothing fetched yet, but for the fields given. */
export const newSourceRow = (fields: NewSourceFields & Partial<KnowledgeSourceRow>): KnowledgeSourceRow => ({
  status: "pending",
  lastError: null,
  etag: null,
  lastModified: null,
  contentHash: null,
  lastFetchedAt: null,
  lastChangedAt: null,
  nextSyncAt: null,
  report: null,
  ...fields,
});

/** A new sitemap's pages, read while the request waits: a sitemap that cannot be read is a 422. */
async function readNewSitemap(deps: Deps, url: string): Promise<SitemapPages> {
  const listed = await collectSitemapPages(deps, url, MAX_SITEMAP_PAGES, { etag: null, lastModified: null });
  if (!listed) throw fetchFailed(`${url} answered 304 Not Modified to a request that was not conditional.`);
  return listed;
}

/**
 * Adds a URL or sitemap source. A URL source is synced at once: when that first sync cannot
 * read the page (refused by the SSRF rules, unreachable, over the plan) nothing is kept and its
 * error is the answer; otherwise the source is kept with the page's result. A sitemap is read
 * (a sitemap that cannot be read is refused the same way) and the source answered `pending`:
 * its pages are imported in the background (import-sitemap.ts: a few at once, tenants in
 * turn), or with `importNow: false` by the schedule, which takes it as due at once (a CLI that
 * does not stay to import it).
 */
export async function addSource(
  deps: Deps,
  tenantId: string,
  input: NewSource,
  embedderOf: EmbedderOf,
  options: { importNow?: boolean } = {},
): Promise<SourceView> {
  const url = checkedUrl(input.kind === "sitemap" ? "sitemap_url" : "url", input.url);
  // Checked before anything is fetched too: a refused source costs no request to its site.
  await assertSourceRoom(deps.store, tenantId);
  const listed = input.kind === "sitemap" ? await readNewSitemap(deps, url) : null;
  const now = deps.clock.now();
  const id = newId("src", now);
  const importNow = options.importNow ?? true;
  await insertSourceInRoom(
    deps.store,
    newSourceRow({
      id,
      tenantId,
      kind: input.kind,
      url,
      title: input.title?.trim() || null,
      nextSyncAt: listed ? (importNow ? now + IMPORT_LEASE_MS : now) : null,
      createdAt: now,
    }),
  );
  const source = await deps.store.knowledgeSources.findSource(tenantId, id);
  if (!source) throw notFound("source");
  if (listed) {
    if (importNow)
      void importInBackground(deps, source, listed, (row, fetch) => syncSource(deps, row, embedderOf, fetch));
    return toSourceView(source, true);
  }
  try {
    const { view, error } = await syncSource(deps, source, embedderOf);
    if (error) throw error;
    return view;
  } catch (error) {
    await deps.store.knowledgeSources.deleteSource(tenantId, id);
    throw error;
  }
}

/** Syncs one of the tenant's sources now (the API's and the admin page's "sync now", the CLI). */
export async function syncSourceNow(
  deps: Deps,
  tenantId: string,
  sourceId: string,
  embedderOf: EmbedderOf,
): Promise<SourceView> {
  const source = await deps.store.knowledgeSources.findSource(tenantId, sourceId);
  if (!source) throw notFound("source");
  return (await syncSource(deps, source, embedderOf)).view;
}

export async function listSources(
  deps: Pick<Deps, "store">,
  tenantId: string,
  page: { limit: number; cursor?: string },
): Promise<Page<SourceView>> {
  const rows = await deps.store.knowledgeSources.listSources(tenantId, page.cursor ?? null, page.limit + 1);
  return toPage(
    rows,
    page.limit,
    (row) => row.id,
    (row) => toSourceView(row, false),
  );
}

export async function getSource(deps: Pick<Deps, "store">, tenantId: string, sourceId: string): Promise<SourceView> {
  const row = await deps.store.knowledgeSources.findSource(tenantId, sourceId);
  if (!row) throw notFound("source");
  return toSourceView(row, true);
}

/** Deletes the source and every document it produced (by cascade, with their chunks). */
export async function deleteSource(deps: Pick<Deps, "store">, tenantId: string, sourceId: string): Promise<void> {
  if (!(await deps.store.knowledgeSources.deleteSource(tenantId, sourceId))) throw notFound("source");
}
