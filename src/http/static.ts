/** Helpers for the few pages and scripts the server renders itself (widget, admin, docs). */

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The CSP source that allows exactly this inline stylesheet (pages carry no inline script). */
export const styleSource = (css: string): string => `'sha256-${new Bun.CryptoHasher("sha256").update(css).digest("base64")}'`;

/**
 * A handler serving a script embedded in the binary, with an ETag so browsers revalidate
 * cheaply (304) instead of downloading it again.
 */
export function scriptHandler(code: string, cacheControl: string) {
  const etag = `"${Bun.hash(code).toString(36)}"`;
  return ({ request }: { request: Request }): Response => {
    const headers = { "cache-control": cacheControl, etag };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return new Response(code, { headers: { ...headers, "content-type": "application/javascript; charset=utf-8" } });
  };
}
