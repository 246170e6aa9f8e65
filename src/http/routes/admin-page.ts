import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { scriptHandler, styleSource } from "../static.ts";
import { ADMIN_CSS, adminHtml } from "../../../widget/admin/page.ts";
import { buildAdmin } from "../../../widget/admin/build.ts" with { type: "macro" };

/** Inlined at transpile time by the macro, like the widget: the binary carries the admin script. */
const ADMIN_JS: string = buildAdmin();
const ADMIN_HTML = adminHtml();

// No inline script at all; the one inline <style> is allowed by its hash. connect-src 'self'
// keeps the API key from being sent anywhere but this server, even by injected markup.
export const ADMIN_CSP = `default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self' ${styleSource(ADMIN_CSS)}; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

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
    .get("/admin.js", scriptHandler(ADMIN_JS, "no-cache"));
}
