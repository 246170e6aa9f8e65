import ipaddr from "ipaddr.js";
import { inspectWithoutLookupKept, resolveAndCheck, type ResolveHost, type WebhookUrlVerdict } from "./ssrf.ts";
import { abortable } from "./abortable.ts";

/**
 * fetch() for URLs a tenant chose (webhook receivers, knowledge imports, a tenant's model
 * provider), connected to the address the SSRF check approved.
 *
 * Checking a name and then letting fetch resolve it again leaves a DNS re-binding window: a
 * name with a zero TTL can answer a public address to the check and 169.254.169.254 to the
 * connect. Here the name is resolved once, every address is checked, and the request is sent
 * to the checked IP itself: the URL's host is replaced by the address, the original host goes
 * in the `Host` header, and for https the TLS server name (SNI) and the certificate check use
 * the original host name (`tls.serverName`), so certificates are verified exactly as before.
 *
 * Redirects are never followed (a redirect would connect to a host nobody checked); callers
 * that follow them do so by hand and call this again for every hop.
 */

export interface PinnedFetchOptions {
  /** PARLEY_ALLOW_PRIVATE_WEBHOOKS: no address rules, so nothing to pin; fetch as given. */
  allowPrivate: boolean;
  resolveHost?: ResolveHost;
  /** Tests: extra trusted CA certificates (PEM) for https receivers with a test certificate. */
  tlsCa?: string[];
  /** Tests: the fetch that dials, to see where a request would go without a network. */
  dial?: typeof fetch;
}

/** The URL was refused before any connection: invalid, unresolvable or a forbidden address. */
export class PinnedFetchRefused extends Error {
  override name = "PinnedFetchRefused";
  constructor(
    readonly reason: Exclude<WebhookUrlVerdict, { ok: true }>["reason"],
    message: string,
  ) {
    super(message);
  }
}

// Errors raised before a request byte left: the next checked address may be tried safely.
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH", "EADDRNOTAVAIL", "ConnectionRefused"]);
const MAX_ADDRESSES_TRIED = 4;

/** IPv4 addresses first (like most resolvers' preference on hosts without IPv6 routes), order kept otherwise. */
function dialOrder(addresses: string[]): string[] {
  const v4 = addresses.filter((address) => ipaddr.parse(address).kind() === "ipv4");
  const v6 = addresses.filter((address) => ipaddr.parse(address).kind() === "ipv6");
  return [...v4, ...v6].slice(0, MAX_ADDRESSES_TRIED);
}

function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The request for one checked address: URL host → the IP, Host header and TLS name → the
 * original host. Exported for tests that check, over real sockets, that http and https servers
 * see the original host and that the certificate is verified against it.
 */
export function pinnedRequest(
  url: URL,
  address: string,
  init: RequestInit,
  tlsCa?: string[],
): { target: string; init: BunFetchRequestInit } {
  const target = new URL(url.href);
  target.hostname = ipaddr.parse(address).kind() === "ipv6" ? `[${address}]` : address;
  const headers = new Headers(init.headers);
  headers.set("host", url.host);
  const pinned: BunFetchRequestInit = { ...init, headers, redirect: "manual" };
  if (url.protocol === "https:") {
    const name = hostOf(url).replace(/\.$/, "");
    pinned.tls = { serverName: name, ...(tlsCa ? { ca: tlsCa } : {}) };
  }
  return { target: target.href, init: pinned };
}

const errorCode = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
};

/**
 * Checks `rawUrl` against the SSRF rules (throwing PinnedFetchRefused) and sends `init` to a
 * checked address. With several addresses, the next one is tried only when the connection
 * was refused outright (nothing was sent), at most MAX_ADDRESSES_TRIED.
 */
export async function fetchPinned(
  rawUrl: string | URL,
  init: RequestInit,
  options: PinnedFetchOptions,
): Promise<Response> {
  const dial = options.dial ?? fetch;
  // Only a host name waits (for DNS); the wait ends with the request's signal.
  const known = inspectWithoutLookupKept(String(rawUrl), options);
  const verdict =
    "lookup" in known
      ? await abortable(
          resolveAndCheck(known, { allowPrivate: options.allowPrivate, resolve: options.resolveHost }),
          init.signal,
        )
      : known;
  if (!verdict.ok) throw new PinnedFetchRefused(verdict.reason, verdict.message);
  const url = verdict.url;
  // Private targets allowed (nothing was checked), or an IP literal that was itself the
  // checked address: nothing to pin, and no host name for SNI.
  if (verdict.addresses.length === 0 || ipaddr.isValid(hostOf(url))) {
    const tls = url.protocol === "https:" && options.tlsCa ? { tls: { ca: options.tlsCa } } : {};
    return dial(url.href, { ...init, ...tls, redirect: "manual" });
  }
  const replayable = init.body === undefined || init.body === null || typeof init.body === "string";
  const order = dialOrder(verdict.addresses);
  let lastError: unknown = null;
  for (const [index, address] of order.entries()) {
    const request = pinnedRequest(url, address, init, options.tlsCa);
    try {
      return await dial(request.target, request.init);
    } catch (error) {
      lastError = error;
      const isLast = index === order.length - 1;
      if (isLast || !replayable || init.signal?.aborted || !NOT_CONNECTED.has(errorCode(error) ?? "")) throw error;
    }
  }
  throw lastError;
}
