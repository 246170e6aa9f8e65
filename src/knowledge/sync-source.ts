import { createHash } from "node:crypto";
import type { Deps } from "../deps.ts";
import type { KnowledgeSourceRow, SourceDocument } from "../db/store.ts";
import { AppError } from "../lib/app-error.ts";
import { addDocument, type PageValidators } from "./documents.ts";
import type { Embedder } from "./embedder.ts";
import { fetchFailed, fetchPage } from "./fetch-page.ts";
import { documentFromBody, PAGE_ACCEPT, pageBodyCap } from "./import-url.ts";
import { replaceDocument } from "./replace-document.ts";
import { collectSitemapPages, MAX_SITEMAP_PAGES, type SitemapPages } from "./sitemap.ts";

/**
 * One sync of a URL or sitemap source. Each page is fetched with the validators of its document
 * (`If-None-Match`, `If-Modified-Since`): a 304, or a body whose SHA-256 is the one held, changes
 * nothing; a changed page replaces its document's text and chunks; a new page becomes a document;
 * a page gone from the sitemap is removed. A page that fails keeps its document, and a source
 * whose own fetch fails keeps all of them: the error is recorded, nothing is lost.
 */

export const PAGE_RESULTS = ["imported", "updated", "unchanged", "removed", "skipped", "failed"] as const;
export type PageResult = (typeof PAGE_RESULTS)[number];

export interface PageOutcome {
  url: string;
  result: PageResult;
  reason?: string;
  document_id?: string;
}

export interface SyncReport {
  counts: Record<PageResult, number>;
  pages: PageOutcome[];
}

/** Pages fetched at once in a sitemap sync: a site's server is not hammered, the sync still ends. */
const PAGE_CONCURRENCY = 4;

const hashOf = (body: Uint8Array): string => createHash("sha256").update(body).digest("hex");

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

type InTurn = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Runs the works given one after another, in the order given. A sync fetches pages side by side
 * but writes their documents in turn: on PostgreSQL two concurrent adds would each check the
 * plan's room before seeing the other's document, and both pass.
 */
function oneAtATime(): InTurn {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Fetches one page of a source and brings its document up to date; throws when the page fails. */
async function syncPage(
  deps: Deps,
  source: KnowledgeSourceRow,
  url: string,
  existing: SourceDocument | undefined,
  embedder: Embedder | null,
  inTurn: InTurn,
): Promise<PageOutcome & { fetched?: PageValidators }> {
  const page = await fetchPage(deps, url, {
    accept: PAGE_ACCEPT,
    etag: existing?.etag,
    lastModified: existing?.lastModified,
    maxBytes: pageBodyCap,
  });
  if (page.notModified) {
    if (!existing) throw fetchFailed(`${url} answered 304 to a request that was not conditional.`);
    const { etag, lastModified, contentHash } = existing;
    return { url, result: "unchanged", document_id: existing.id, fetched: { etag, lastModified, contentHash } };
  }
  const fetched = { etag: page.etag, lastModified: page.lastModified, contentHash: hashOf(page.body) };
  if (existing && existing.contentHash === fetched.contentHash) {
    await deps.store.knowledgeSources.updateDocumentValidators({ id: existing.id, ...fetched });
    return { url, result: "unchanged", document_id: existing.id, fetched };
  }
  const title = source.kind === "url" ? (source.title ?? undefined) : undefined;
  const document = { ...(await documentFromBody(page, title)), sourceUrl: url, sourceId: source.id, fetched };
  if (existing) {
    await inTurn(() => replaceDocument(deps, source.tenantId, existing, document, embedder));
    return { url, result: "updated", document_id: existing.id, fetched };
  }
  const added = await inTurn(() => addDocument(deps, source.tenantId, document, embedder));
  return { url, result: "imported", document_id: added.document_id, fetched };
}

/** A page's failure as an outcome: past the plan's cap it is skipped, anything else failed. */
const failedPage = (url: string, error: unknown, existing: SourceDocument | undefined): PageOutcome => ({
  url,
  result: error instanceof AppError && error.code === "plan_limit" ? "skipped" : "failed",
  reason: reasonOf(error),
  ...(existing ? { document_id: existing.id } : {}),
});

async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface SyncResult {
  /** The source's own validators after the sync (the page's for a URL source, the sitemap's for a sitemap). */
  validators: PageValidators;
  outcomes: PageOutcome[];
  /** The source itself could not be read: its documents were left as they were. */
  error: unknown;
}

/** The pages a sitemap answered 304 for: those the last sync saw, whatever became of them. */
const pagesOfLastReport = (source: KnowledgeSourceRow): string[] =>
  source.report
    ? (JSON.parse(source.report) as SyncReport).pages
        .filter((page) => page.result !== "skipped" && page.result !== "removed")
        .map((page) => page.url)
    : [];

export interface FetchOptions {
  /** The sitemap's pages as just read (a new source's, read while the request waited): not read again. */
  listed?: SitemapPages;
  /** Called after each page of a sitemap (the background import renews its lease there). */
  onPage?: () => Promise<void>;
}

export async function fetchSource(
  deps: Deps,
  source: KnowledgeSourceRow,
  embedder: Embedder | null,
  options: FetchOptions = {},
): Promise<SyncResult> {
  const documents = await deps.store.knowledgeSources.listSourceDocuments(source.id);
  const byUrl = new Map(documents.map((document) => [document.sourceUrl ?? "", document]));
  const held: PageValidators = {
    etag: source.etag,
    lastModified: source.lastModified,
    contentHash: source.contentHash,
  };
  const url = source.url ?? "";
  if (source.kind === "url") {
    const existing = byUrl.get(url);
    try {
      const { fetched, ...outcome } = await syncPage(deps, source, url, existing, embedder, oneAtATime());
      return { validators: fetched ?? held, outcomes: [outcome], error: null };
    } catch (error) {
      return { validators: held, outcomes: [failedPage(url, error, existing)], error };
    }
  }
  let listed: SitemapPages | null;
  try {
    listed = options.listed ?? (await collectSitemapPages(deps, url, MAX_SITEMAP_PAGES, held));
  } catch (error) {
    return { validators: held, outcomes: [], error };
  }
  // On a 304 the pages are those seen last time and every page a document came from: a 304 never removes one.
  const pages = listed?.pages ?? [
    ...new Set([...pagesOfLastReport(source), ...documents.flatMap((document) => document.sourceUrl ?? [])]),
  ];
  const inTurn = oneAtATime();
  const outcomes = await mapBounded(pages, PAGE_CONCURRENCY, async (page) => {
    const existing = byUrl.get(page);
    try {
      const { fetched: _, ...outcome } = await syncPage(deps, source, page, existing, embedder, inTurn);
      return outcome;
    } catch (error) {
      return failedPage(page, error, existing);
    } finally {
      await options.onPage?.();
    }
  });
  const listedNow = new Set(pages);
  for (const document of documents) {
    if (listedNow.has(document.sourceUrl ?? "")) continue;
    await deps.store.knowledgeSources.deleteDocumentById(document.id);
    outcomes.push({ url: document.sourceUrl ?? "", result: "removed", document_id: document.id });
  }
  const skipped = (listed?.skipped ?? []).map((page): PageOutcome => ({ ...page, result: "skipped" }));
  const validators = listed ? { ...listed.root, contentHash: null } : held;
  return { validators, outcomes: [...outcomes, ...skipped], error: null };
}
