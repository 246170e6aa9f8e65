import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { invalidField } from "./validate.ts";

/** Resolves a hostname to every address it has (A and AAAA); injectable so tests never use DNS. */
export type ResolveHost = (host: string) => Promise<string[]>;

export interface WebhookUrlOptions {
  /** PARLEY_ALLOW_PRIVATE_WEBHOOKS: development and tests deliver to loopback receivers. */
  allowPrivate: boolean;
  resolve?: ResolveHost;
}

export type WebhookUrlVerdict =
  /**
   * `addresses`: every address the host was checked at (an IP literal: itself); the connection
   * must go to one of these (src/lib/pinned-fetch.ts). Empty when private targets are allowed:
   * then nothing was checked and nothing needs pinning.
   */
  | { ok: true; url: URL; addresses: string[] }
  | { ok: false; reason: "invalid" | "unresolvable" | "forbidden"; message: string };

/** How long a host's resolved addresses are used again without asking DNS. */
export const DNS_CACHE_MS = 5_000;
/** Past this many hosts the cache starts again empty: tenants' URLs cannot grow it without bound. */
export const DNS_CACHE_MAX_HOSTS = 1_000;

/**
 * `resolve` with its answers kept for `ttlMs`. Every webhook send checks its receiver's
 * addresses (send-webhook.ts), and `node:dns` asks getaddrinfo every time (Bun's own DNS cache
 * serves `fetch`, not `lookup`): ~23 µs of CPU for a name in /etc/hosts, a query to the resolver
 * for a real one — for every delivery to the same receiver. Kept answers are still checked on
 * every send, and the connection still goes to a checked address, so the SSRF guarantees are
 * those of any resolver's TTL: a name re-pointed at a private address is refused once its
 * answer expires. A failed or empty answer is not kept.
 */
export function cachedResolver(resolve: ResolveHost, ttlMs: number, now: () => number): ResolveHost {
  const answers = new Map<string, { addresses: string[]; until: number }>();
  return async (host) => {
    const at = now();
    const kept = answers.get(host);
    if (kept && kept.until > at) return [...kept.addresses];
    const addresses = await resolve(host);
    if (addresses.length > 0) {
      if (answers.size >= DNS_CACHE_MAX_HOSTS) answers.clear();
      answers.set(host, { addresses: [...addresses], until: at + ttlMs });
    }
    return addresses;
  };
}

const lookupEveryAddress: ResolveHost = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The resolver used unless a test injects one; each thread (the send thread too) keeps its own answers. */
export const resolveHostWithDns: ResolveHost = cachedResolver(lookupEveryAddress, DNS_CACHE_MS, () =>
  performance.now(),
);

// IPv6 forms that carry an IPv4 address: they are judged by that address, so
// ::ffff:127.0.0.1 is loopback and 64:ff9b::93.184.216.34 (DNS64 on an IPv6-only host) is public.
const EMBEDDED_IPV4_RANGES = new Set(["ipv4Mapped", "rfc6145", "rfc6052", "6to4"]);
// ipaddr.js calls ::/96 "unicast", but it is the deprecated IPv4-compatible form (::127.0.0.1);
// no public receiver lives there, so it is refused outright instead of trusting the host's routing.
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

const ipv4FromParts = (high: number, low: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);

function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const [, p1 = 0, p2 = 0, , , , p6 = 0, p7 = 0] = address.parts;
  if (range === "ipv4Mapped" || range === "rfc6145") return ipv4FromParts(p6, p7);
  if (range === "6to4") return ipv4FromParts(p1, p2);
  // RFC 8215 local-use NAT64 prefixes (64:ff9b:1::/48) place the IPv4 address by a
  // site-chosen prefix length, so only the well-known /96 can be decoded; the rest is refused.
  if (range === "rfc6052" && address.match(NAT64_WELL_KNOWN)) return ipv4FromParts(p6, p7);
  return null;
}

/**
 * The forbidden class of an address ("loopback", "private", …) or null when it is an ordinary
 * public unicast address. Allow-listing "unicast" rather than deny-listing known ranges means
 * any range ipaddr.js learns about later (reserved, benchmarking, AS112, …) is refused too.
 * A string that is not an IP address at all is refused: this check must fail closed.
 */
export function classifyForbiddenAddress(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return "invalid";
  const address = ipaddr.parse(ip);
  if (address.kind() === "ipv4") {
    const range = address.range();
    return range === "unicast" ? null : range;
  }
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  if (EMBEDDED_IPV4_RANGES.has(range)) {
    const inner = embeddedIpv4(v6, range);
    if (inner === null) return range;
    const innerRange = inner.range();
    return innerRange === "unicast" ? null : `${range} ${innerRange}`;
  }
  if (range === "unicast" && v6.match(IPV4_COMPATIBLE)) return "ipv4Compatible";
  return range === "unicast" ? null : range;
}

export const isForbiddenAddress = (ip: string): boolean => classifyForbiddenAddress(ip) !== null;

// Webhooks, knowledge imports and model providers share this check, so the hint names none of them.
const ALLOW_PRIVATE_HINT =
  "Parley calls only publicly reachable addresses (PARLEY_ALLOW_PRIVATE_WEBHOOKS=true allows private ones in development)";

function hostOf(url: URL): string {
  // WHATWG URL keeps IPv6 literals bracketed and has already canonicalized decimal, hex and
  // octal IPv4 spellings (http://2130706433/, http://0x7f000001/) to dotted form.
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  // "localhost." is the same name as "localhost"; strip the root dot before comparing names.
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/** A URL that passed every check not needing DNS; its host is a name still to be resolved and checked. */
export interface PendingLookup {
  url: URL;
  lookup: string;
}

/**
 * Decides whether a webhook URL may be called, without throwing: the sender needs to tell an
 * unresolvable host (a connection error, retried) from a forbidden one. Every resolved address
 * must be allowed: a name answering one public and one private address (DNS rebinding) is
 * refused, because the HTTP client may connect to either.
 */
export async function inspectWebhookUrl(rawUrl: string, options: WebhookUrlOptions): Promise<WebhookUrlVerdict> {
  const known = inspectWithoutLookup(rawUrl, options);
  return "lookup" in known ? resolveAndCheck(known, options) : known;
}

/**
 * Everything inspectWebhookUrl decides without DNS, at once: the verdict for an invalid URL, a
 * loopback name, an IP literal or any URL while private targets are allowed; for a host name
 * the parsed URL and the name to resolve (`resolveAndCheck`). A sender to an address it need
 * not resolve then starts the request without waiting for anything.
 */
export function inspectWithoutLookup(
  rawUrl: string,
  options: Pick<WebhookUrlOptions, "allowPrivate">,
): WebhookUrlVerdict | PendingLookup {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: "invalid", message: "must be an absolute http(s) URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      ok: false,
      reason: "invalid",
      message: `scheme ${url.protocol.slice(0, -1)} is not allowed; use http or https`,
    };
  }
  // Credentials in the URL would be stored in plain text and sent on every delivery; the
  // rule's secret and the signature are the authentication mechanism.
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "invalid", message: "must not contain a username or password" };
  }
  if (options.allowPrivate) return { ok: true, url, addresses: [] };

  const host = hostOf(url).toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) {
    // RFC 6761: resolvers may answer these from /etc/hosts or not at all; refuse by name.
    return { ok: false, reason: "forbidden", message: `host ${host} is loopback; ${ALLOW_PRIVATE_HINT}` };
  }
  return ipaddr.isValid(host) ? checkAddresses(url, host, [host]) : { url, lookup: host };
}

/** Past this many URLs the kept DNS-free verdicts start again empty (tenants' URLs cannot grow them without bound). */
export const URL_VERDICTS_MAX = 1_000;
type KeptVerdicts = Map<string, WebhookUrlVerdict | PendingLookup>;
const keptChecked: KeptVerdicts = new Map();
const keptPrivateAllowed: KeptVerdicts = new Map();

/**
 * inspectWithoutLookup for a sender, kept per URL: the same receiver URL is sent to thousands of
 * times, and parsing and classifying it again each time cost ~1 µs a delivery. What is kept
 * depends on the URL's text alone, never on DNS: a host name is still resolved and every address
 * checked on each send (resolveAndCheck, whose answers expire with DNS_CACHE_MS). Callers must
 * not modify the verdict's URL.
 */
export function inspectWithoutLookupKept(
  rawUrl: string,
  options: Pick<WebhookUrlOptions, "allowPrivate">,
): WebhookUrlVerdict | PendingLookup {
  const kept = options.allowPrivate ? keptPrivateAllowed : keptChecked;
  const known = kept.get(rawUrl);
  if (known !== undefined) return known;
  const verdict = inspectWithoutLookup(rawUrl, options);
  if (kept.size >= URL_VERDICTS_MAX) kept.clear();
  kept.set(rawUrl, verdict);
  return verdict;
}

/** The verdict for a host name inspectWithoutLookup left: resolved, and every address checked. */
export async function resolveAndCheck(pending: PendingLookup, options: WebhookUrlOptions): Promise<WebhookUrlVerdict> {
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveHostWithDns)(pending.lookup);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0)
    return { ok: false, reason: "unresolvable", message: `cannot resolve host ${pending.lookup}` };
  return checkAddresses(pending.url, pending.lookup, addresses);
}

function checkAddresses(url: URL, host: string, addresses: string[]): WebhookUrlVerdict {
  for (const address of addresses) {
    const forbidden = classifyForbiddenAddress(address);
    if (forbidden !== null) {
      return {
        ok: false,
        reason: "forbidden",
        message: `host ${host} resolves to ${address} (${forbidden}); ${ALLOW_PRIVATE_HINT}`,
      };
    }
  }
  return { ok: true, url, addresses };
}

/** The rule-creation check: the URL, or a 422 validation_failed naming `url`. */
export async function checkWebhookUrl(rawUrl: string, options: WebhookUrlOptions): Promise<URL> {
  const verdict = await inspectWebhookUrl(rawUrl, options);
  if (!verdict.ok) throw invalidField("url", verdict.message);
  return verdict.url;
}
