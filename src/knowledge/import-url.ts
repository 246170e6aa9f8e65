import type { Deps } from "../deps.ts";
import type { KnowledgeFormat } from "../db/schema-knowledge.ts";
import { AppError } from "../lib/app-error.ts";
import { invalidField } from "../lib/validate.ts";
import { fetchPinned, PinnedFetchRefused } from "../lib/pinned-fetch.ts";
import { addDocument, type DocumentView } from "./documents.ts";
import type { Embedder } from "./embedder.ts";
import { htmlToText } from "./html-to-text.ts";

/**
 * Imports a web page (or a Markdown or text file) as a document. The server fetches a URL
 * the caller chose, so it is guarded like a webhook target (src/lib/ssrf.ts): http(s)
 * only, no credentials in the URL, and no loopback, private, link-local, CGNAT, multicast or
 * unspecified address unless PARLEY_ALLOW_PRIVATE_WEBHOOKS is on. Redirects are followed by
 * hand, at most MAX_REDIRECTS, and every hop is checked again: otherwise a public page could
 * redirect the server to http://169.254.169.254/. The whole import has one deadline, and the
 * body is read in chunks and abandoned past MAX_IMPORT_BYTES instead of buffered.
 */

export const IMPORT_TIMEOUT_MS = 10_000;
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

export interface UrlImport {
  url: string;
  title?: string;
}

export interface ImportOptions {
  timeoutMs?: number;
}

const fetchFailed = (message: string) => new AppError("url_fetch_failed", 422, message);
const tooLarge = () =>
  new AppError("document_too_large", 413, `The page is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; import a smaller page or paste the relevant text.`);

function formatOf(contentType: string, url: URL): KnowledgeFormat | null {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "text/markdown" || type === "text/x-markdown") return "markdown";
  if (type === "text/plain") return /\.(md|markdown)$/i.test(url.pathname) ? "markdown" : "text";
  return null;
}

function decoderFor(contentType: string): TextDecoder {
  const charset = /charset="?([\w.:-]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

async function readCapped(response: Response): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_IMPORT_BYTES) throw tooLarge();
  if (!response.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_IMPORT_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}

/**
 * Fetches `rawUrl`, re-checking the SSRF rules on every redirect hop; each hop connects to the
 * address its check approved (src/lib/pinned-fetch.ts), so DNS re-binding cannot slip past.
 */
async function fetchGuarded(deps: Deps, rawUrl: string, signal: AbortSignal): Promise<{ response: Response; url: URL }> {
  let next = rawUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response: Response;
    try {
      response = await fetchPinned(next, { redirect: "manual", signal, headers: { accept: "text/html, text/markdown, text/plain;q=0.9" } }, {
        allowPrivate: deps.config.allowPrivateWebhooks,
        resolveHost: deps.resolveHost,
      });
    } catch (error) {
      if (!(error instanceof PinnedFetchRefused)) throw error;
      throw invalidField("url", hop === 0 ? error.message : `redirected to ${next}, which is refused: ${error.message}`);
    }
    const url = new URL(next);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => undefined);
      next = new URL(location, url).href;
      continue;
    }
    return { response, url };
  }
  throw fetchFailed(`More than ${MAX_REDIRECTS} redirects.`);
}

/** Fetches the page, turns it into text and adds it as a document whose `source_url` is the URL. */
export async function importDocumentFromUrl(deps: Deps, tenantId: string, input: UrlImport, embedder: Embedder | null, options: ImportOptions = {}): Promise<DocumentView> {
  const timeoutMs = options.timeoutMs ?? IMPORT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let body: Uint8Array;
  let contentType: string;
  let finalUrl: URL;
  try {
    const { response, url } = await fetchGuarded(deps, input.url, controller.signal);
    finalUrl = url;
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw fetchFailed(`${url.href} answered HTTP ${response.status}.`);
    }
    contentType = response.headers.get("content-type") ?? "text/html";
    if (formatOf(contentType, url) === null) {
      await response.body?.cancel().catch(() => undefined);
      throw fetchFailed(`${url.href} is ${contentType.split(";")[0]}; only HTML, Markdown and plain text can be imported.`);
    }
    body = await readCapped(response);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (controller.signal.aborted) throw fetchFailed(`No complete answer from ${input.url} within ${timeoutMs / 1000} s.`);
    throw fetchFailed(`Cannot fetch ${input.url}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  const format = formatOf(contentType, finalUrl) ?? "html";
  const content = decoderFor(contentType).decode(body);
  const pageTitle = format === "html" ? htmlToText(content).title : null;
  const title = input.title?.trim() || pageTitle || `${finalUrl.hostname}${finalUrl.pathname === "/" ? "" : finalUrl.pathname}`;
  return addDocument(deps, tenantId, { title: title.slice(0, 200), content, format, sourceUrl: input.url }, embedder);
}
