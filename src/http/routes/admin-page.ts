import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { ADMIN_CSS, adminHtml } from "../../../widget/admin/page.ts";
import { buildAdmin } from "../../../widget/admin/build.ts" with { type: "macro" };

/** Inlined at transpile time by the macro, like the widget: the binary carries the admin script. */
const ADMIN_JS: string = buildAdmin();
const ADMIN_JS_ETAG = `"${Bun.hash(ADMIN_JS).toString(36)}"`;
const ADMIN_HTML = adminHtml();

// No inline script at all; the one inline <style> is allowed by its hash. connect-src 'self'
// keeps the API key from being sent anywhere but this server, even by injected markup.
const ADMIN_CSS_HASH = new Bun.CryptoHasher("sha256").update(ADMIN_CSS).digest("base64");
export const ADMIN_CSP = `default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self' 'sha256-${ADMIN_CSS_HASH}'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** GET /admin (the admin page) and GET /admin.js (its script). The page itself holds no data; every call it makes needs an API key. */
export function adminPageRoutes(_deps: AppDeps) {
  return new Elysia()
    .get(
      "/admin",
      () =>
        new Response(ADMIN_HTML, {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": ADMIN_CSP,
            "cache-control": "no-store",
            "referrer-policy": "no-referrer",
            "x-frame-options": "DENY",
          },
        }),
    )
    .get("/admin.js", ({ request }) => {
      const headers = { "cache-control": "no-cache", etag: ADMIN_JS_ETAG };
      if (request.headers.get("if-none-match") === ADMIN_JS_ETAG) return new Response(null, { status: 304, headers });
      return new Response(ADMIN_JS, { headers: { ...headers, "content-type": "application/javascript; charset=utf-8" } });
    });
}
