import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, strictObject } from "../schema.ts";
import { securityPlugin, tenantOf } from "../plugins/security.ts";
import { addDocument, deleteDocument, getDocument, listDocuments } from "../../knowledge/documents.ts";
import { importDocumentFromUrl } from "../../knowledge/import-url.ts";
import { MAX_SEARCH_LIMIT, searchKnowledge } from "../../knowledge/search.ts";
import { embedderForTenant } from "../../assistant/settings.ts";
import { KNOWLEDGE_FORMATS } from "../../db/schema-knowledge.ts";

const MANAGERS = ["owner", "admin"] as const;
const tenantIdField = t.Optional(t.String({ maxLength: 64 }));

const documentView = t.Object({
  document_id: t.String(),
  title: t.String(),
  format: t.Union(KNOWLEDGE_FORMATS.map((format) => t.Literal(format))),
  source_url: t.Union([t.String(), t.Null()]),
  bytes: t.Integer(),
  chunk_count: t.Integer(),
  created_at: t.String(),
});

export const KnowledgeModel = {
  createBody: t.Union([
    strictObject({
      title: t.String({ minLength: 1, maxLength: 200 }),
      content: t.String({ minLength: 1, maxLength: 65_536 }),
      format: t.Union(KNOWLEDGE_FORMATS.map((format) => t.Literal(format))),
      source_url: t.Optional(t.String({ format: "uri", maxLength: 2_000 })),
    }),
    strictObject({ url: t.String({ minLength: 1, maxLength: 2_000 }), title: t.Optional(t.String({ minLength: 1, maxLength: 200 })) }),
  ]),
  documentView,
  tenantQuery: strictObject({ tenant_id: tenantIdField }),
  pageQuery: strictObject({ ...pageFields, tenant_id: tenantIdField }),
  searchQuery: strictObject({
    q: t.String({ minLength: 1, maxLength: 500 }),
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_SEARCH_LIMIT, multipleOf: 1 })),
    tenant_id: tenantIdField,
  }),
  searchResponse: t.Object({
    query: t.String(),
    embedding_model: t.Union([t.String(), t.Null()]),
    data: t.Array(
      t.Object({
        chunk_id: t.String(),
        document_id: t.String(),
        title: t.String(),
        url: t.Union([t.String(), t.Null()]),
        text: t.String(),
        score: t.Number(),
        bm25_rank: t.Optional(t.Integer()),
        vector_rank: t.Optional(t.Integer()),
      }),
    ),
  }),
} as const;

/** The tenant's knowledge base: documents in (text, Markdown, HTML or a URL), ranked chunks out. */
export function knowledgeRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/knowledge" })
    .use(securityPlugin(deps))
    .post(
      "/documents",
      async ({ principal, query, body, set }) => {
        const tenantId = tenantOf(principal, query.tenant_id, MANAGERS);
        const embedder = embedderForTenant(deps, tenantId);
        const document =
          "url" in body
            ? await importDocumentFromUrl(deps, tenantId, { url: body.url, title: body.title }, embedder)
            : await addDocument(deps, tenantId, { title: body.title, content: body.content, format: body.format, sourceUrl: body.source_url }, embedder);
        set.status = 201;
        return document;
      },
      { tenantAccess: true, rateLimit: "management", query: KnowledgeModel.tenantQuery, body: KnowledgeModel.createBody, response: { 201: documentView } },
    )
    .get("/documents", ({ principal, query }) => listDocuments(deps, tenantOf(principal, query.tenant_id, MANAGERS), { limit: query.limit ?? 50, cursor: query.cursor }), {
      tenantAccess: true,
      rateLimit: "management",
      query: KnowledgeModel.pageQuery,
    })
    .get("/documents/:id", ({ principal, params, query }) => getDocument(deps, tenantOf(principal, query.tenant_id, MANAGERS), params.id), {
      tenantAccess: true,
      rateLimit: "management",
      params: idParams,
      query: KnowledgeModel.tenantQuery,
    })
    .delete(
      "/documents/:id",
      ({ principal, params, query }) => {
        deleteDocument(deps, tenantOf(principal, query.tenant_id, MANAGERS), params.id);
        return { ok: true, document_id: params.id, deleted: true };
      },
      { tenantAccess: true, rateLimit: "management", params: idParams, query: KnowledgeModel.tenantQuery },
    )
    .get(
      "/search",
      async ({ principal, query }) => {
        const tenantId = tenantOf(principal, query.tenant_id, MANAGERS);
        const embedder = embedderForTenant(deps, tenantId);
        const data = await searchKnowledge(deps, tenantId, query.q, { limit: query.limit, embedder });
        return { query: query.q, embedding_model: embedder?.model ?? null, data };
      },
      { tenantAccess: true, rateLimit: "management", query: KnowledgeModel.searchQuery, response: { 200: KnowledgeModel.searchResponse } },
    );
}
