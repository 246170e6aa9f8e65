import type { Deps } from "../deps.ts";
import { AppError } from "../lib/app-error.ts";
import { fetchPinned, PinnedFetchRefused } from "../lib/pinned-fetch.ts";
import { invalidField } from "../lib/validate.ts";

/**
 * One guarded GET of a URL a tenant chose. The server fetches it, so it is guarded like a
 * webhook target (src/lib/ssrf.ts): http(s) only, no credentials in the URL, and no loopback,
 * private, link-local, CGNAT, multicast or unspecified address unless PARLEY_ALLOW_PRIVATE_WEBHOOKS
 * is on. Redirects are followed by hand, at most MAX_REDIRECTS, and every hop is checked again:
 * otherwise a public page could redirect the server to http://169.254.169.254/. The whole fetch
 * has one deadline, and the body is read in chunks and abandoned past its cap instead of buffered.
 */

export const IMPORT_TIMEOUT_MS = 10_000;
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

export interface FetchPageOptions {
  accept: string;
  /** Validators of the copy already held: the request becomes conditional (a 304 costs nothing). */
  etag?: string | null;
  lastModified?: string | null;
  timeoutMs?: number;
  /** The body's cap, or a cap per Content-Type (a PDF may be larger than a page). */
  maxBytes?: number | ((contentType: string) => number);
}

export type FetchedPage =
  | { notModified: true; url: URL }
  | {
      notModified: false;
      url: URL;
      body: Uint8Array;
      contentType: string;
      etag: string | null;
      lastModified: string | null;
    };

export const fetchFailed = (message: string) => new AppError("url_fetch_failed", 422, message);
const tooLarge = (maxBytes: number) =>
  new AppError(
    "document_too_large",
    413,
    `The page is larger than ${maxBytes / 1024 / 1024} MB; import a smaller page or paste the relevant text.`,
  );

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!response.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}

/**
 * Fetches `rawUrl`, re-checking the SSRF rules on every redirect hop; each hop connects to the
 * address its check approved (src/lib/pinned-fetch.ts), so DNS re-binding cannot slip past.
 */
async function fetchGuarded(
  deps: Deps,
  rawUrl: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ response: Response; url: URL }> {
  let next = rawUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response: Response;
    try {
      response = await fetchPinned(
        next,
        { redirect: "manual", signal, headers },
        { allowPrivate: deps.config.allowPrivateWebhooks, resolveHost: deps.resolveHost },
      );
    } catch (error) {
      if (!(error instanceof PinnedFetchRefused)) throw error;
      throw invalidField(
        "url",
        hop === 0 ? error.message : `redirected to ${next}, which is refused: ${error.message}`,
      );
    }
    const url = new URL(next);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
      await response.body?.cancel().catch(() => undefined);
      next = new URL(location, url).href;
      continue;
    }
    return { response, url };
  }
  throw fetchFailed(`More than ${MAX_REDIRECTS} redirects.`);
}

/**
 * GETs a page: its body (2xx), or `notModified` when the copy held is current (304). Any other
 * status, a timeout or a broken connection is a 422 `url_fetch_failed` naming the URL; a body
 * past the cap is a 413; a URL the SSRF rules refuse is a 422 naming `url`.
 */
export async function fetchPage(deps: Deps, rawUrl: string, options: FetchPageOptions): Promise<FetchedPage> {
  const timeoutMs = options.timeoutMs ?? IMPORT_TIMEOUT_MS;
  const headers: Record<string, string> = { accept: options.accept };
  if (options.etag) headers["if-none-match"] = options.etag;
  if (options.lastModified) headers["if-modified-since"] = options.lastModified;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const { response, url } = await fetchGuarded(deps, rawUrl, headers, controller.signal);
    if (response.status === 304) {
      await response.body?.cancel().catch(() => undefined);
      return { notModified: true, url };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw fetchFailed(`${url.href} answered HTTP ${response.status}.`);
    }
    const contentType = response.headers.get("content-type") ?? "";
    const cap =
      typeof options.maxBytes === "function" ? options.maxBytes(contentType) : (options.maxBytes ?? MAX_IMPORT_BYTES);
    const body = await readCapped(response, cap);
    return {
      notModified: false,
      url,
      body,
      contentType,
      etag: response.headers.get("etag"),
      lastModified: response.headers.get("last-modified"),
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (controller.signal.aborted) throw fetchFailed(`No complete answer from ${rawUrl} within ${timeoutMs / 1000} s.`);
    throw fetchFailed(`Cannot fetch ${rawUrl}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The body's text in the charset its Content-Type names (UTF-8 when none or an unknown one). */
export function decodeBody(body: Uint8Array, contentType: string): string {
  const charset = /charset="?([\w.:-]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
