import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { escapeHtml, scriptHandler, styleSource } from "../static.ts";
import { findTenant } from "../../tenants/find-tenant.ts";
import { buildWidget } from "../../../widget/build.ts" with { type: "macro" };

/** Inlined at transpile time by the macro: the binary serves the widget with no file on disk. */
const WIDGET_JS: string = buildWidget();

const DEMO_CSS = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
pre{background:#f1f3f5;padding:1rem;border-radius:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
code{font-family:ui-monospace,monospace;font-size:.9em}`;
// The one inline <style> is allowed by its hash; the page has no inline script at all.
const DEMO_CSP = `default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self' ${styleSource(DEMO_CSS)}; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** The configured public URL, or this request's own origin when none was configured. */
function baseUrlFor(deps: AppDeps, request: Request): string {
  const configured = deps.config.publicUrl.replace(/\/+$/, "");
  return configured === `http://localhost:${deps.config.port}` ? new URL(request.url).origin : configured;
}

export const widgetSnippet = (baseUrl: string, tenantId: string): string =>
  `<script src="${baseUrl}/widget.js" data-tenant="${tenantId}" data-branding-url="${baseUrl}" data-theme="auto" data-position="right" async></script>`;

function demoPage(baseUrl: string, demoTenantId: string | null): string {
  const tenantId = demoTenantId ?? "ten_…";
  const intro = demoTenantId
    ? `<p>The chat button in the corner is the widget of the demo tenant <code>${escapeHtml(demoTenantId)}</code>. Ask about prices, opening hours or an appointment, or ask for a human.</p>`
    : `<p>No demo tenant yet. Start the server with <code>parley serve --demo</code>, or create a tenant with <code>parley tenant create --name "Acme" --origins https://your-site.example</code> and use its id below.</p>`;
  const embed = demoTenantId
    ? `<script src="/widget.js" data-tenant="${escapeHtml(demoTenantId)}" async></script>`
    : "";
  const next = `<p><a href="/admin">Admin page</a> (sign in with your e-mail and password, or a tenant API key — the demo's login and key are printed once, by the start that seeds it): dead letters, deliveries, rules, the hand-off inbox, charts. <a href="/docs">API reference</a>: every route of <code>/api/v1</code>.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Parley</title><style>${DEMO_CSS}</style></head>
<body><h1>Parley</h1>${intro}
${next}
<h2>Add the widget to your site</h2>
<p>Paste this before <code>&lt;/body&gt;</code>; your page's Content-Security-Policy must allow <code>${escapeHtml(baseUrl)}</code> in <code>script-src</code> and <code>connect-src</code>.</p>
<pre><code>${escapeHtml(widgetSnippet(baseUrl, tenantId))}</code></pre>
${embed}</body></html>`;
}

export function widgetAssetRoutes(deps: AppDeps) {
  return (
    new Elysia()
      .get("/widget.js", scriptHandler(WIDGET_JS, "public, max-age=300"))
      // Browsers ask for it on every page; an empty answer beats a 404 in the console.
      .get(
        "/favicon.ico",
        () => new Response(null, { status: 204, headers: { "cache-control": "public, max-age=86400" } }),
      )
      .get("/", async ({ request }) => {
        const demoId = await deps.store.settings.findSetting("demo_tenant_id");
        const tenantId = demoId && (await findTenant(deps, demoId)) ? demoId : null;
        return new Response(demoPage(baseUrlFor(deps, request), tenantId), {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": DEMO_CSP,
            "cache-control": "no-store",
          },
        });
      })
  );
}
