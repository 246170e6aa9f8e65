/** Helpers for the few pages and scripts the server renders itself (widget, admin, docs). */

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The CSP source that allows exactly this inline stylesheet (pages carry no inline script). */
export const styleSource = (css: string): string =>
  `'sha256-${new Bun.CryptoHasher("sha256").update(css).digest("base64")}'`;

/** Whether the client takes gzip: named in Accept-Encoding (or `*`) without `q=0`. */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  let star = false;
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const refused = params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(param));
    if (name === "gzip") return !refused;
    if (name === "*") star = !refused;
  }
  return star;
}

/**
 * A handler serving a text the binary carries (a script, the OpenAPI document): gzipped once, on
 * first demand, for clients that take it, with an ETag per representation so browsers revalidate
 * cheaply (304) instead of downloading it again. The widget and the admin script are sent to every
 * visitor and operator; the API reference's viewer is 4 MB, 1 MB gzipped.
 */
export function embeddedHandler(content: () => string, contentType: string, cacheControl: string) {
  // Made, hashed and gzipped on first demand, not at start-up (the viewer alone is 4 MB).
  let text: string | null = null;
  let tag: string | null = null;
  let gzipped: Uint8Array<ArrayBuffer> | null = null;
  return ({ request }: { request: Request }): Response => {
    text ??= content();
    tag ??= Bun.hash(text).toString(36);
    const gzip = acceptsGzip(request.headers.get("accept-encoding"));
    const etag = gzip ? `"${tag}-gz"` : `"${tag}"`;
    const headers: Record<string, string> = { "cache-control": cacheControl, etag, vary: "accept-encoding" };
    const known = request.headers.get("if-none-match");
    if (
      known !== null &&
      (known.trim() === "*" || known.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag))
    ) {
      return new Response(null, { status: 304, headers });
    }
    headers["content-type"] = contentType;
    if (!gzip) return new Response(text, { headers });
    gzipped ??= Bun.gzipSync(text);
    return new Response(gzipped, { headers: { ...headers, "content-encoding": "gzip" } });
  };
}

/** A script embedded in the binary, served as embeddedHandler serves it. */
export const scriptHandler = (code: string, cacheControl: string) =>
  embeddedHandler(() => code, "application/javascript; charset=utf-8", cacheControl);
