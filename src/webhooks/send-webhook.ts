import { fetchPinned, PinnedFetchRefused, type PinnedFetchOptions } from "../lib/pinned-fetch.ts";
import type { ResolveHost } from "../lib/ssrf.ts";
import type { AttemptResult } from "../db/store-webhooks.ts";
import { sendDeadlines } from "./send-deadline.ts";

export interface SendWebhookInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: ResolveHost;
  /** Tests only: a test CA for https receivers, or a fake dialer. */
  pinning?: Pick<PinnedFetchOptions, "tlsCa" | "dial">;
}

export type { AttemptResult };

export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * Reads at most RESPONSE_EXCERPT_BYTES and then cancels the stream: a receiver answering with
 * a huge (or endless) body must cost us 1 KiB of memory, not the whole body. Every read races
 * `expired`, which rejects when the attempt's time is up.
 */
async function readExcerpt(response: Response, expired: Promise<never>): Promise<string> {
  if (response.body === null) return "";
  // The common case, a short declared body ("ok", "{}", nothing): the whole body is the
  // excerpt, read as text (Bun decodes it natively, invalid bytes replaced), which is cheaper
  // than a buffer and a decoder, or a stream reader; anything larger or undeclared is streamed and cut.
  const declared = Number(response.headers.get("content-length") ?? "NaN");
  if (declared <= RESPONSE_EXCERPT_BYTES) return Promise.race([response.text(), expired]);
  const reader = response.body.getReader();
  const excerpt = new Uint8Array(RESPONSE_EXCERPT_BYTES);
  let filled = 0;
  try {
    while (filled < RESPONSE_EXCERPT_BYTES) {
      const chunk = await Promise.race([reader.read(), expired]);
      if (chunk.done) break;
      const take = Math.min(chunk.value.byteLength, RESPONSE_EXCERPT_BYTES - filled);
      excerpt.set(chunk.value.subarray(0, take), filled);
      filled += take;
    }
  } finally {
    // Cancelling closes the connection instead of draining the rest; errors here are moot.
    reader.cancel().catch(() => undefined);
  }
  // stream: true keeps a multi-byte character cut at the 1 KiB boundary out of the text
  // instead of turning it into U+FFFD; other invalid bytes are replaced (lossy by design).
  return new TextDecoder().decode(excerpt.subarray(0, filled), { stream: true });
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

function classifyStatus(status: number): { ok: boolean; error: string | null } {
  if (status >= 200 && status < 300) return { ok: true, error: null };
  // Following a redirect would let a receiver bounce the signed body to any URL, including
  // internal ones the SSRF check refused, so a 3xx is a failed attempt (DESIGN §4).
  if (status >= 300 && status < 400) return { ok: false, error: `redirect_not_followed: ${status}` };
  return { ok: false, error: `http_status: ${status}` };
}

/**
 * One delivery attempt. Never throws: every outcome is an AttemptResult for the delivery log.
 * One deadline covers the whole exchange — the send-time SSRF check, connecting, the headers
 * and reading the excerpt — so a receiver trickling its body cannot hold a sender slot past it.
 */
export async function sendWebhook(input: SendWebhookInput): Promise<AttemptResult> {
  const startedAt = performance.now();
  const deadline = sendDeadlines.start(input.timeoutMs);
  let statusCode: number | null = null;
  const finish = (ok: boolean, error: string | null, responseExcerpt: string | null = null): AttemptResult => ({
    ok,
    statusCode,
    error,
    durationMs: Math.round((performance.now() - startedAt) * 100) / 100,
    responseExcerpt,
  });

  try {
    // Checked at send time too (the name may resolve differently than at rule creation), and
    // the connection goes to the address that was checked: no DNS re-binding window.
    const response = await Promise.race([
      fetchPinned(
        input.url,
        { method: "POST", headers: input.headers, body: input.body, redirect: "manual", signal: deadline.signal },
        { allowPrivate: input.allowPrivate, resolveHost: input.resolve, ...input.pinning },
      ),
      deadline.expired,
    ]);
    statusCode = response.status;
    const verdict = classifyStatus(response.status);
    const excerpt = await readExcerpt(response, deadline.expired);
    return finish(verdict.ok, verdict.error, excerpt);
  } catch (error) {
    if (error instanceof PinnedFetchRefused) {
      const kind = error.reason === "unresolvable" ? "connection_error" : "forbidden_address";
      return finish(false, `${kind}: ${error.message}`);
    }
    // The deadline passed: fetch, or a read racing it, gave up.
    if (deadline.signal.aborted) {
      return finish(false, `timeout: no response within ${input.timeoutMs} ms`);
    }
    return finish(false, `connection_error: ${describeError(error)}`);
  } finally {
    deadline.release();
  }
}
