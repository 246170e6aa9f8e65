import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { addSource, deleteSource, getSource, listSources, syncSourceNow } from "../../knowledge/sources.ts";
import { uploadPdf } from "../../knowledge/upload-pdf.ts";
import { getSyncSchedule, setSyncSchedule } from "../../knowledge/sync-schedule.ts";
import { PAGE_RESULTS } from "../../knowledge/sync-source.ts";
import { MAX_PDF_BYTES, PDF_QUEUE, PDF_TIMEOUT_MS } from "../../knowledge/pdf-text.ts";
import { embedderForTenant } from "../../assistant/settings.ts";
import { SOURCE_KINDS, SOURCE_STATUSES } from "../../db/schema-knowledge.ts";
import { AppError } from "../../lib/app-error.ts";
import { invalidField } from "../../lib/validate.ts";
import { deletedResponse, idOf, nullableIsoTime, nullableString, isoTime, oneOf, pageOf } from "../response-schemas.ts";

const tenantIdField = t.Optional(t.String({ maxLength: 64 }));

const pageOutcome = t.Object({
  url: t.String(),
  result: oneOf(PAGE_RESULTS),
  reason: t.Optional(t.String()),
  document_id: t.Optional(t.String()),
});

const sourceView = t.Object({
  source_id: idOf("src"),
  kind: oneOf(SOURCE_KINDS),
  url: nullableString("The page or sitemap fetched; null for an upload."),
  title: nullableString(),
  status: oneOf(SOURCE_STATUSES, {
    description:
      "How the last sync ended: ok (something changed), unchanged, failed (see last_error), or pending while a new source's first import runs.",
  }),
  last_error: nullableString("Why the last sync failed, or which pages did."),
  etag: nullableString("The ETag the next sync sends as If-None-Match."),
  last_modified: nullableString("The Last-Modified the next sync sends as If-Modified-Since."),
  last_synced_at: nullableIsoTime(),
  last_changed_at: nullableIsoTime("When a sync last changed a document."),
  next_sync_at: nullableIsoTime("When the schedule fetches it again; null for uploads and while the schedule is off."),
  document_count: t.Integer(),
  created_at: isoTime(),
  report: t.Nullable(t.Object({ counts: t.Record(t.String(), t.Integer()), pages: t.Optional(t.Array(pageOutcome)) }), {
    description: "The last sync: counts per result, and on a single source each page's result and reason.",
  }),
});

export const KnowledgeSourceModel = {
  createBody: strictObject({
    url: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 2_000,
        description: "A page (HTML, Markdown, text or PDF) kept in sync.",
        examples: ["https://example.com/prices"],
      }),
    ),
    sitemap_url: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 2_000,
        description: "A sitemap.xml (or sitemap index) whose pages are imported and kept in sync.",
      }),
    ),
    title: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        description: "With url: the document's title (default: the page's own).",
      }),
    ),
  }),
  pdfQuery: strictObject({ title: t.Optional(t.String({ minLength: 1, maxLength: 200 })), tenant_id: tenantIdField }),
  scheduleBody: strictObject({
    sync_interval: t.String({ minLength: 1, maxLength: 16, examples: ["1d", "12h", "off"] }),
  }),
  schedule: t.Object({
    sync_interval: t.String({ description: "How often URL and sitemap sources are fetched again, or off." }),
  }),
  sourceView,
  sourcePage: pageOf(sourceView),
  deleteResponse: deletedResponse("source_id", "src"),
  tenantQuery: strictObject({ tenant_id: tenantIdField }),
  pageQuery: strictObject({ ...pageFields, tenant_id: tenantIdField }),
} as const;

type CreateBody = (typeof KnowledgeSourceModel.createBody)["static"];

/** `{url}` or `{sitemap_url}`, exactly one. */
function newSourceOf(body: CreateBody) {
  if (body.url !== undefined && body.sitemap_url !== undefined)
    throw invalidField("sitemap_url", "send either url or sitemap_url, not both");
  if (body.sitemap_url !== undefined) {
    if (body.title !== undefined) throw invalidField("title", "a sitemap's documents take their pages' titles");
    return { kind: "sitemap" as const, url: body.sitemap_url };
  }
  if (body.url === undefined) throw invalidField("url", "is required (or send sitemap_url)");
  return { kind: "url" as const, url: body.url, title: body.title };
}

/** Knowledge sources: pages and sitemaps kept in sync on a schedule, and uploaded PDFs. */
export function knowledgeSourceRoutes(deps: AppDeps) {
  const manager = { tenantAccess: true, rateLimit: "management" } as const;
  const embedderOf = (tenantId: string) => embedderForTenant(deps, tenantId);
  return new Elysia({ prefix: "/api/v1/knowledge" })
    .use(securityPlugin(deps))
    .post(
      "/sources",
      async ({ principal, query, body, set }) => {
        const source = await addSource(
          deps,
          tenantOf(principal, query.tenant_id, MANAGER_ROLES),
          newSourceOf(body),
          embedderOf,
        );
        set.status = 201;
        return source;
      },
      {
        ...manager,
        query: KnowledgeSourceModel.tenantQuery,
        body: KnowledgeSourceModel.createBody,
        response: { 201: sourceView },
        detail: {
          summary: "Add a page or a sitemap as a knowledge source",
          description:
            "A page is fetched at once (SSRF-guarded) and answered with its result. A sitemap is read at once (with its child sitemaps and robots.txt) and answered 201 with the source `pending`; its pages (each of its own site's pages that robots.txt allows, up to 500 and the plan's document cap) are then imported in the background: poll GET /sources/:id until `status` is no longer pending for the per-page report. Both are then fetched again on the tenant's schedule with conditional requests. When the page or the sitemap itself cannot be read nothing is kept (422; 402 plan_limit past the plan's cap).",
        },
      },
    )
    .post(
      "/sources/pdf",
      async ({ principal, query, body, set }) => {
        const tenantId = tenantOf(principal, query.tenant_id, MANAGER_ROLES);
        if (!(body instanceof Uint8Array))
          throw new AppError(
            "unsupported_media_type",
            415,
            "Send the PDF itself as the body, with Content-Type: application/pdf.",
          );
        const source = await uploadPdf(deps, tenantId, { bytes: body, title: query.title }, await embedderOf(tenantId));
        set.status = 201;
        return source;
      },
      {
        ...manager,
        query: KnowledgeSourceModel.pdfQuery,
        response: { 201: sourceView },
        detail: {
          summary: "Upload a PDF",
          requestBody: {
            required: true,
            content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
          },
          description: `The body is the file (Content-Type: application/pdf, at most ${MAX_PDF_BYTES / 1024 / 1024} MB). Its text becomes one document, a section per page; a file that cannot be read (or takes over ${PDF_TIMEOUT_MS / 1000} s) is a 422 pdf_unreadable. Files are read one at a time on a thread of their own; with ${PDF_QUEUE} more waiting, an upload is a 503 pdf_busy with Retry-After.`,
        },
      },
    )
    .get(
      "/sources",
      ({ principal, query }) =>
        listSources(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), {
          limit: query.limit ?? 50,
          cursor: query.cursor,
        }),
      {
        ...manager,
        query: KnowledgeSourceModel.pageQuery,
        response: { 200: KnowledgeSourceModel.sourcePage },
        detail: {
          summary: "List knowledge sources",
          description: "Newest first, with each one's sync state and result counts.",
        },
      },
    )
    .get(
      "/sources/:id",
      ({ principal, params, query }) => getSource(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id),
      {
        ...manager,
        params: idParams,
        query: KnowledgeSourceModel.tenantQuery,
        response: { 200: sourceView },
        detail: { summary: "Read a knowledge source", description: "With the last sync's result for each page." },
      },
    )
    .post(
      "/sources/:id/sync",
      ({ principal, params, query }) =>
        syncSourceNow(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id, embedderOf),
      {
        ...manager,
        params: idParams,
        query: KnowledgeSourceModel.tenantQuery,
        response: { 200: sourceView },
        detail: {
          summary: "Sync a knowledge source now",
          description: "Fetches it at once, as the schedule would; 409 for an upload or while it is syncing.",
        },
      },
    )
    .delete(
      "/sources/:id",
      async ({ principal, params, query }) => {
        await deleteSource(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id);
        return { ok: true as const, source_id: params.id, deleted: true as const };
      },
      {
        ...manager,
        params: idParams,
        query: KnowledgeSourceModel.tenantQuery,
        response: { 200: KnowledgeSourceModel.deleteResponse },
        detail: { summary: "Delete a knowledge source", description: "With every document it produced." },
      },
    )
    .get(
      "/sync-schedule",
      ({ principal, query }) => getSyncSchedule(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES)),
      {
        ...manager,
        query: KnowledgeSourceModel.tenantQuery,
        response: { 200: KnowledgeSourceModel.schedule },
        detail: {
          summary: "Read the re-crawl schedule",
          description: "How often URL and sitemap sources are fetched again (default 1d).",
        },
      },
    )
    .put(
      "/sync-schedule",
      ({ principal, query, body }) =>
        setSyncSchedule(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), body.sync_interval),
      {
        ...manager,
        query: KnowledgeSourceModel.tenantQuery,
        body: KnowledgeSourceModel.scheduleBody,
        response: { 200: KnowledgeSourceModel.schedule },
        detail: {
          summary: "Set the re-crawl schedule",
          description: 'A duration from 1h to 30d ("12h", "1d", "7d"), or "off".',
        },
      },
    );
}
