import type { Deps } from "../deps.ts";
import type { KnowledgeFormat } from "../db/schema-knowledge.ts";
import { addDocument, type DocumentView, type NewDocument } from "./documents.ts";
import type { Embedder } from "./embedder.ts";
import { decodeBody, fetchFailed, fetchPage, MAX_IMPORT_BYTES } from "./fetch-page.ts";
import { htmlToText } from "./html-to-text.ts";
import { MAX_PDF_BYTES, pdfToText } from "./pdf-text.ts";

export { IMPORT_TIMEOUT_MS, MAX_IMPORT_BYTES, MAX_REDIRECTS } from "./fetch-page.ts";

export interface UrlImport {
  url: string;
  title?: string;
}

export interface ImportOptions {
  timeoutMs?: number;
}

/** What a page can be imported as, from its Content-Type; null when it is none of them. */
export function formatOf(contentType: string, url: URL): KnowledgeFormat | null {
  const type = contentType.split(";")[0]?.trim().toLowerCase() || "text/html";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "text/markdown" || type === "text/x-markdown") return "markdown";
  if (type === "text/plain") return /\.(md|markdown)$/i.test(url.pathname) ? "markdown" : "text";
  if (type === "application/pdf") return "pdf";
  return null;
}

export const PAGE_ACCEPT = "text/html, text/markdown, application/pdf, text/plain;q=0.9";

/** A PDF may be as large as an uploaded one; a page's text must fit MAX_IMPORT_BYTES. */
export const pageBodyCap = (contentType: string): number =>
  /^application\/pdf\b/i.test(contentType.trim()) ? MAX_PDF_BYTES : MAX_IMPORT_BYTES;

/**
 * A fetched body as a document to add: HTML titled by its `<title>`, a PDF by its metadata
 * title, else by the given title or the URL. A type that cannot be imported is a 422.
 */
export async function documentFromBody(
  page: { url: URL; body: Uint8Array; contentType: string },
  title: string | undefined,
): Promise<NewDocument> {
  const format = formatOf(page.contentType, page.url);
  if (format === null)
    throw fetchFailed(
      `${page.url.href} is ${page.contentType.split(";")[0]}; only HTML, Markdown, plain text and PDF can be imported.`,
    );
  let content: string;
  let ownTitle: string | null;
  if (format === "pdf") {
    ({ text: content, title: ownTitle } = await pdfToText(page.body));
  } else {
    content = decodeBody(page.body, page.contentType);
    ownTitle = format === "html" ? htmlToText(content).title : null;
  }
  const fallback = `${page.url.hostname}${page.url.pathname === "/" ? "" : page.url.pathname}`;
  return { title: (title?.trim() || ownTitle || fallback).slice(0, 200), content, format };
}

/** Fetches the page (SSRF-guarded: src/knowledge/fetch-page.ts), turns it into text and adds it as a document whose `source_url` is the URL. */
export async function importDocumentFromUrl(
  deps: Deps,
  tenantId: string,
  input: UrlImport,
  embedder: Embedder | null,
  options: ImportOptions = {},
): Promise<DocumentView> {
  const page = await fetchPage(deps, input.url, {
    accept: PAGE_ACCEPT,
    timeoutMs: options.timeoutMs,
    maxBytes: pageBodyCap,
  });
  if (page.notModified) throw fetchFailed(`${input.url} answered 304 to a request that was not conditional.`);
  const document = await documentFromBody(page, input.title);
  return addDocument(deps, tenantId, { ...document, sourceUrl: input.url }, embedder);
}
