import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { embeddedHandler, escapeHtml, scriptHandler } from "../static.ts";
import { buildOpenApiDocument, type OpenApiDocument, type RouteInfo } from "../openapi.ts";
import { readApiReferenceBundle, readApiReferenceVersion } from "../api-reference-bundle.ts" with { type: "macro" };

/** Scalar's viewer, inlined at transpile time by the macro: the binary carries it, no CDN. */
const VIEWER_JS: string = readApiReferenceBundle();
const VIEWER_VERSION: string = readApiReferenceVersion();
const DOCS_CACHE = "public, max-age=86400";

/**
 * The viewer's settings: the document from this server, no web fonts, no telemetry, no
 * AI agent or MCP features (they call Scalar's services), no proxy (requests go straight
 * to this origin, which the CSP's connect-src allows).
 */
const VIEWER_CONFIG = {
  url: "/docs/json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideDarkModeToggle: false,
  persistAuth: false,
  defaultOpenAllTags: false,
  metaData: { title: "Parley API reference" },
};
const VIEWER_INIT_JS = `Scalar.createApiReference("#reference", ${JSON.stringify(VIEWER_CONFIG)});\n`;

interface Operation {
  summary?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: {
    content: { "application/json": { schema: { properties?: Record<string, unknown>; required?: string[] } } };
  };
}

/** The operations as a plain list, for readers without JavaScript (inside <noscript>). */
function operationList(document: OpenApiDocument): string {
  const items: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(operations)) {
      const operation = raw as Operation;
      const body = operation.requestBody?.content["application/json"].schema;
      const fields = Object.keys(body?.properties ?? {}).map(
        (name) => `${name}${body?.required?.includes(name) ? "" : "?"}`,
      );
      const query = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => parameter.name);
      const notes = [
        operation.summary ?? "",
        fields.length ? `Body: ${fields.join(", ")}` : "",
        query.length ? `Query: ${query.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join(". ");
      items.push(`<li><code>${method.toUpperCase()} ${escapeHtml(path)}</code> ${escapeHtml(notes)}</li>`);
    }
  }
  return `<ul>${items.join("")}</ul>`;
}

function docsPage(document: OpenApiDocument): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Parley API reference</title></head><body><noscript><h1>Parley API ${escapeHtml(document.info.version)}</h1><p>The interactive reference needs JavaScript. The OpenAPI 3.1 document is at <a href="/docs/json">/docs/json</a>.</p>${operationList(document)}</noscript><div id="reference" data-viewer="scalar ${escapeHtml(VIEWER_VERSION)}"></div><script src="/docs/viewer.js?v=${escapeHtml(VIEWER_VERSION)}"></script><script src="/docs/viewer-init.js?v=${escapeHtml(VIEWER_VERSION)}"></script></body></html>`;
}

/**
 * Scripts only from this server. Styles may be inline: the viewer injects its stylesheet and
 * sets style attributes at run time (no hash can cover them), and styles cannot run code.
 * connect-src is this origin (and the public URL's), so "Try it" reaches nothing else.
 */
function docsCsp(publicUrl: string): string {
  const publicOrigin = URL.canParse(publicUrl) ? ` ${new URL(publicUrl).origin}` : "";
  return `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'${publicOrigin}; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** GET /docs (Scalar's interactive reference), GET /docs/json (OpenAPI 3.1), and the viewer's two scripts. */
export function docsRoutes(deps: AppDeps, routes: () => readonly RouteInfo[]) {
  let document: OpenApiDocument | null = null;
  const build = () => (document ??= buildOpenApiDocument(routes(), deps.config.publicUrl));
  const csp = docsCsp(deps.config.publicUrl);
  return (
    new Elysia()
      // 285 KB of JSON: gzipped and revalidated by ETag like the scripts; it changes only with the binary.
      .get(
        "/docs/json",
        embeddedHandler(() => JSON.stringify(build()), "application/json", "no-cache"),
      )
      .get("/docs/viewer.js", scriptHandler(VIEWER_JS, DOCS_CACHE))
      .get("/docs/viewer-init.js", scriptHandler(VIEWER_INIT_JS, DOCS_CACHE))
      .get(
        "/docs",
        () =>
          new Response(docsPage(build()), {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "content-security-policy": csp,
              "cache-control": "no-cache",
              "referrer-policy": "no-referrer",
            },
          }),
      )
  );
}
