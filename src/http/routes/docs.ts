import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { escapeHtml, styleSource } from "../static.ts";
import { buildOpenApiDocument, type OpenApiDocument, type RouteInfo } from "../openapi.ts";

const CSS = "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}h2{margin-top:2rem;text-transform:capitalize}code{font-family:ui-monospace,monospace}.op{border-top:1px solid #e3e6ea;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;font-weight:700}.n{color:#57606a;margin:.2rem 0 0 4.5rem;font-size:.9em}";
const CSP = `default-src 'none'; style-src ${styleSource(CSS)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

interface Operation {
  tags?: string[];
  description?: string;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: { "application/json": { schema: { properties?: Record<string, unknown>; required?: string[] } } } };
}

/** A readable, script-free page of every operation, generated from the same document. */
function docsPage(document: OpenApiDocument): string {
  const groups = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(operations)) {
      const operation = raw as Operation;
      const tag = operation.tags?.[0] ?? "service";
      const body = operation.requestBody?.content["application/json"].schema;
      const fields = Object.keys(body?.properties ?? {}).map((name) => `${name}${body?.required?.includes(name) ? "" : "?"}`);
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name);
      const notes = [operation.description ?? "", fields.length ? `Body: ${fields.join(", ")}` : "", query.length ? `Query: ${query.join(", ")}` : ""].filter(Boolean);
      const html = `<div class="op"><span class="m">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code>${notes.map((note) => `<div class="n">${escapeHtml(note)}</div>`).join("")}</div>`;
      groups.set(tag, [...(groups.get(tag) ?? []), html]);
    }
  }
  const sections = [...groups].map(([tag, items]) => `<h2>${escapeHtml(tag)}</h2>${items.join("")}`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Parley API</title><style>${CSS}</style></head><body><h1>Parley API ${escapeHtml(document.info.version)}</h1><p>${escapeHtml(document.info.description)} The OpenAPI 3.1 document: <a href="/docs/json">/docs/json</a>.</p>${sections}</body></html>`;
}

/** GET /docs (HTML) and GET /docs/json (OpenAPI 3.1), built once from the app's own route schemas. */
export function docsRoutes(deps: AppDeps, routes: () => readonly RouteInfo[]) {
  let document: OpenApiDocument | null = null;
  const build = () => (document ??= buildOpenApiDocument(routes(), deps.config.publicUrl));
  return new Elysia()
    .get("/docs/json", () => build())
    .get("/docs", () => new Response(docsPage(build()), { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP } }));
}
