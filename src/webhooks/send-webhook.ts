import ipaddr from "ipaddr.js";
import { createHttp1Client, type Http1Client } from "../lib/http1-client.ts";
import { decodeExcerpt } from "../lib/http1-response.ts";
import {
  dialInOrder,
  fetchPinned,
  PinnedFetchRefused,
  resolvePinnedTarget,
  tlsServerName,
  type PinnedFetchOptions,
  type PinnedTarget,
} from "../lib/pinned-fetch.ts";
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
  /** Tests only: a test CA for https receivers, a fake dialer, or a client that routes its connections. */
  pinning?: Pick<PinnedFetchOptions, "tlsCa" | "dial"> & { client?: Http1Client };
}

export type { AttemptResult };

export const RESPONSE_EXCERPT_BYTES = 1024;

// Each thread keeps its own connections (the send thread has its own module instance).
const receivers = createHttp1Client({ excerptBytes: RESPONSE_EXCERPT_BYTES });

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

interface ReceiverParts {
  tls: boolean;
  port: number;
  /** The Host header. */
  host: string;
  path: string;
  /** The URL's host without brackets or a final dot: dialled when nothing is pinned, and the TLS name. */
  name: string;
  /** The TLS server name, unless the host is an IP literal (then the certificate must name the IP). */
  serverName: string | undefined;
}

// A receiver's URL comes from the SSRF check's kept verdicts, the same object on every send,
// so what the request needs from it is read once (URL getters cost ~1 µs a send together).
const partsByUrl = new WeakMap<URL, ReceiverParts>();

function receiverParts(url: URL): ReceiverParts {
  const known = partsByUrl.get(url);
  if (known) return known;
  const name = tlsServerName(url);
  const parts = {
    tls: url.protocol === "https:",
    port: Number(url.port) || DEFAULT_PORTS[url.protocol] || 80,
    host: url.host,
    path: url.pathname + url.search,
    name,
    serverName: ipaddr.isValid(name) ? undefined : name,
  };
  partsByUrl.set(url, parts);
  return parts;
}

/**
 * The POST to the checked addresses in turn (the next only when one refused the connection),
 * on kept-alive connections. The URL's host goes in the Host header and, for https, is the TLS
 * server name the certificate is verified against, whatever address is dialled.
 */
function postToReceiver(
  target: PinnedTarget,
  input: SendWebhookInput,
  signal: AbortSignal,
  onStatus: (status: number) => void,
) {
  const parts = receiverParts(target.url);
  const post = (hostname: string) =>
    (input.pinning?.client ?? receivers).post({
      target: { hostname, port: parts.port, tls: parts.tls, serverName: parts.serverName, ca: input.pinning?.tlsCa },
      host: parts.host,
      path: parts.path,
      headers: input.headers,
      body: input.body,
      signal,
      onStatus,
    });
  if (target.addresses === null) return post(parts.name);
  return dialInOrder(target.addresses, post, signal);
}

/** Tests: a fake fetch (`pinning.dial`) in place of the sockets, read into the same excerpt. */
async function postWithDialer(input: SendWebhookInput, signal: AbortSignal, onStatus: (status: number) => void) {
  const response = await fetchPinned(
    input.url,
    { method: "POST", headers: input.headers, body: input.body, redirect: "manual", signal },
    {
      allowPrivate: input.allowPrivate,
      resolveHost: input.resolve,
      tlsCa: input.pinning?.tlsCa,
      dial: input.pinning?.dial,
    },
  );
  onStatus(response.status);
  const bytes = new Uint8Array(await response.arrayBuffer()).subarray(0, RESPONSE_EXCERPT_BYTES);
  const declared = response.headers.get("content-length");
  return {
    status: response.status,
    excerpt: decodeExcerpt(bytes, declared === null ? null : Number(declared), RESPONSE_EXCERPT_BYTES),
  };
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
    const onStatus = (status: number) => {
      statusCode = status;
    };
    const answer = input.pinning?.dial
      ? await Promise.race([postWithDialer(input, deadline.signal, onStatus), deadline.expired])
      : await postToReceiver(
          // Checked at send time too (the name may resolve differently than at rule creation), and
          // the connection goes to the address that was checked: no DNS re-binding window.
          await resolvePinnedTarget(
            input.url,
            { allowPrivate: input.allowPrivate, resolveHost: input.resolve },
            deadline.signal,
          ),
          input,
          deadline.signal,
          onStatus,
        );
    const verdict = classifyStatus(answer.status);
    return finish(verdict.ok, verdict.error, answer.excerpt);
  } catch (error) {
    if (error instanceof PinnedFetchRefused) {
      const kind = error.reason === "unresolvable" ? "connection_error" : "forbidden_address";
      return finish(false, `${kind}: ${error.message}`);
    }
    // The deadline passed: the socket was destroyed, or a wait racing it gave up.
    if (deadline.signal.aborted) {
      return finish(false, `timeout: no response within ${input.timeoutMs} ms`);
    }
    return finish(false, `connection_error: ${describeError(error)}`);
  } finally {
    deadline.release();
  }
}
