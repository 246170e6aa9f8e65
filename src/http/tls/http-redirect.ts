import type { Server } from "bun";

const CHALLENGE_PREFIX = "/.well-known/acme-challenge/";

export interface RedirectOptions {
  readonly port: number;
  readonly hostname: string;
  /** The HTTPS port redirects point to (left out of the URL when 443). */
  readonly httpsPort: number;
  /** The key authorization for an ACME HTTP-01 token, or null when none is pending. */
  readonly challenge: (token: string) => string | null | Promise<string | null>;
}

function jsonError(status: number, error: string, message: string): Response {
  return Response.json({ error, message }, { status });
}

/**
 * Plain HTTP while TLS is on: every request is sent to the same path on https:// with 308
 * (method and body kept), except ACME HTTP-01 challenges, which the CA fetches over plain HTTP.
 */
export async function redirectToHttps(
  request: Request,
  options: Pick<RedirectOptions, "httpsPort" | "challenge">,
): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname.startsWith(CHALLENGE_PREFIX)) {
    const answer = await options.challenge(url.pathname.slice(CHALLENGE_PREFIX.length));
    return answer === null
      ? jsonError(404, "not_found", "No such ACME challenge.")
      : new Response(answer, { headers: { "content-type": "text/plain" } });
  }
  const host = hostWithoutPort(request.headers.get("host") ?? "");
  if (host === null) return jsonError(400, "invalid_host", "A Host header naming this server is required.");
  const port = options.httpsPort === 443 ? "" : `:${options.httpsPort}`;
  return new Response(null, {
    status: 308,
    headers: { location: `https://${host}${port}${url.pathname}${url.search}` },
  });
}

/** The host name of a Host header, or null when it is missing or not a plain name or address. */
function hostWithoutPort(header: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/.exec(header.trim());
  return match?.[1] ?? null;
}

export function listenRedirect(options: RedirectOptions): Server<undefined> {
  return Bun.serve<undefined>({
    port: options.port,
    hostname: options.hostname,
    reusePort: false,
    development: false,
    fetch: (request) => redirectToHttps(request, options),
  });
}
