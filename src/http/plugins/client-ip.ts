import type { Server } from "bun";

/**
 * The address the request came from. `X-Forwarded-For` is believed only when the operator
 * says a proxy stands in front (PARLEY_TRUST_PROXY): otherwise any client could pick its own
 * rate-limit bucket by sending the header. Behind a proxy we take the right-most entry,
 * the one our proxy appended; entries to its left are whatever the client claimed.
 */
export function clientIp(request: Request, server: Server<unknown> | null, trustProxy: boolean): string {
  // Asked two or three times per request (the credential guard, a rate limit, the visitor
  // allowance), and Bun's requestIP costs ~1.5 µs a call: the answer is kept with the request.
  const known = ADDRESSES.get(request);
  if (known && known.trustProxy === trustProxy) return known.ip;
  const ip = addressOf(request, server, trustProxy);
  ADDRESSES.set(request, { trustProxy, ip });
  return ip;
}

const ADDRESSES = new WeakMap<Request, { trustProxy: boolean; ip: string }>();

function addressOf(request: Request, server: Server<unknown> | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
