import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps.ts";
import { idParams, pageFields, queryWholeNumber, strictObject } from "../schema.ts";
import { MANAGER_ROLES, securityPlugin, tenantOf } from "../plugins/security.ts";
import { addDocument, deleteDocument, getDocument, listDocuments } from "../../knowledge/documents.ts";
import { importDocumentFromUrl } from "../../knowledge/import-url.ts";
import { MAX_SEARCH_LIMIT, searchKnowledge } from "../../knowledge/search.ts";
import { embedderForTenant } from "../../assistant/settings.ts";
import { KNOWLEDGE_FORMATS, type KnowledgeFormat } from "../../db/schema-knowledge.ts";
import { invalidField } from "../../lib/validate.ts";
import { deletedResponse, idOf, isoTime, oneOf, pageOf } from "../response-schemas.ts";
import { dryRunAddDocument, dryRunDeleteDocument } from "../../test-set/dry-run.ts";
import { dryRunSchema, dryRunQuery } from "./chatbot-tests.ts";

const tenantIdField = t.Optional(t.String({ maxLength: 64 }));

/** What content sent as text can be written in; a PDF is uploaded as a file (knowledge-sources.ts). */
const TEXT_FORMATS = KNOWLEDGE_FORMATS.filter((format): format is Exclude<KnowledgeFormat, "pdf"> => format !== "pdf");

const documentView = t.Object({
  document_id: idOf("doc"),
  title: t.String({ examples: ["Opening hours and prices"] }),
  format: oneOf(KNOWLEDGE_FORMATS),
  source_url: t.Union([t.String(), t.Null()], { description: "Where the text came from, cited by the assistant." }),
  source_id: t.Union([t.String(), t.Null()], {
    description: "The knowledge source that produced it (deleted with it); null when added by hand.",
  }),
  bytes: t.Integer(),
  chunk_count: t.Integer({ description: "Passages the text was split into for search." }),
  created_at: isoTime(),
});

export const KnowledgeModel = {
  // One object rather than a union, so a mistake gets a message naming the field (a union's
  // error only says that neither shape matched); which fields go together is checked below.
  createBody: strictObject({
    title: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 200,
        description: "Required with content; optional with url (default: the page's <title>).",
        examples: ["Opening hours"],
      }),
    ),
    content: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 65_536,
        description: "The text itself; send either content (with title and format) or url.",
        examples: ["# Opening hours\nMonday to Friday, 9:00 to 18:00."],
      }),
    ),
    format: t.Optional(
      t.Union(
        TEXT_FORMATS.map((format) => t.Literal(format)),
        { description: "How content is written; required with content.", examples: ["markdown"] },
      ),
    ),
    source_url: t.Optional(
      t.String({
        format: "uri",
        maxLength: 2_000,
        description: "Where content came from, cited by the assistant; only with content.",
      }),
    ),
    url: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 2_000,
        description: "A page the server fetches (SSRF-guarded, 10 s, at most 2 MB).",
      }),
    ),
  }),
  documentView,
  documentDetail: t.Composite([
    documentView,
    t.Object({
      content: t.String({ description: "The stored text (HTML is kept as its text)." }),
      chunks: t.Array(
        t.Object({
          chunk_id: t.String(),
          position: t.Integer(),
          heading: t.String(),
          text: t.String(),
          embedding_model: t.Nullable(t.String()),
        }),
        {
          description: "The passages the assistant searches.",
        },
      ),
    }),
  ]),
  documentPage: pageOf(documentView),
  deleteResponse: deletedResponse("document_id", "doc"),
  tenantQuery: strictObject({ tenant_id: tenantIdField }),
  changeQuery: dryRunQuery,
  pageQuery: strictObject({ ...pageFields, tenant_id: tenantIdField }),
  searchQuery: strictObject({
    q: t.String({ minLength: 1, maxLength: 500 }),
    limit: t.Optional(queryWholeNumber("limit", 1, MAX_SEARCH_LIMIT)),
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
        coverage: t.Optional(
          t.Number({
            description: "Share of the question's IDF weight the passage matches (the relevance gate keeps ≥ 0.3).",
          }),
        ),
        similarity: t.Optional(t.Number({ description: "Cosine of the passage's vector to the question's." })),
      }),
    ),
  }),
} as const;

type CreateBody = (typeof KnowledgeModel.createBody)["static"];

type Source =
  | { url: string; title?: string }
  | { url?: undefined; title: string; content: string; format: KnowledgeFormat; sourceUrl?: string };

/** `{url}` or `{title, content, format}`, never both: a 422 naming the field otherwise. */
function sourceOf(body: CreateBody): Source {
  if (body.url !== undefined) {
    for (const field of ["content", "format", "source_url"] as const) {
      if (body[field] !== undefined)
        throw invalidField(field, "send either url (the server fetches the page) or content, not both");
    }
    return { url: body.url, title: body.title };
  }
  const { title, content, format } = body;
  if (title === undefined) throw invalidField("title", "is required (or send url instead)");
  if (content === undefined) throw invalidField("content", "is required (or send url instead)");
  if (format === undefined) throw invalidField("format", "is required (or send url instead)");
  return { title, content, format, sourceUrl: body.source_url };
}

/** The tenant's knowledge base: documents in (text, Markdown, HTML or a URL), ranked chunks out. */
export function knowledgeRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/api/v1/knowledge" })
    .use(securityPlugin(deps))
    .post(
      "/documents",
      async ({ principal, query, body, set }) => {
        const tenantId = tenantOf(principal, query.tenant_id, MANAGER_ROLES);
        const source = sourceOf(body);
        if (query.dry_run) {
          if (source.url !== undefined)
            throw invalidField("url", "a dry run takes content (with title and format), not a page to fetch");
          return dryRunAddDocument(deps, tenantId, source);
        }
        const embedder = await embedderForTenant(deps, tenantId);
        const document =
          source.url !== undefined
            ? await importDocumentFromUrl(deps, tenantId, source, embedder)
            : await addDocument(deps, tenantId, source, embedder);
        set.status = 201;
        return document;
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: KnowledgeModel.changeQuery,
        body: KnowledgeModel.createBody,
        response: { 201: documentView, 200: dryRunSchema },
        detail: {
          summary: "Add a knowledge document",
          description:
            "Either {title, content, format} (text, Markdown or HTML) or {url} (the server fetches the page). The text is split into passages the assistant searches. Counts against the plan's document cap (402 plan_limit). With ?dry_run=true (content only) nothing is stored: the test set runs with and without the document (200).",
        },
      },
    )
    .get(
      "/documents",
      ({ principal, query }) =>
        listDocuments(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), {
          limit: query.limit ?? 50,
          cursor: query.cursor,
        }),
      {
        tenantAccess: true,
        rateLimit: "management",
        query: KnowledgeModel.pageQuery,
        detail: { summary: "List knowledge documents", description: "Newest first, cursor paged; without their text." },
        response: { 200: KnowledgeModel.documentPage },
      },
    )
    .get(
      "/documents/:id",
      ({ principal, params, query }) =>
        getDocument(deps, tenantOf(principal, query.tenant_id, MANAGER_ROLES), params.id),
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: KnowledgeModel.tenantQuery,
        detail: { summary: "Read a knowledge document", description: "With its passages (chunks)." },
        response: { 200: KnowledgeModel.documentDetail },
      },
    )
    .delete(
      "/documents/:id",
      async ({ principal, params, query }) => {
        const tenantId = tenantOf(principal, query.tenant_id, MANAGER_ROLES);
        if (query.dry_run) return dryRunDeleteDocument(deps, tenantId, params.id);
        await deleteDocument(deps, tenantId, params.id);
        return { ok: true as const, document_id: params.id, deleted: true as const };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        params: idParams,
        query: KnowledgeModel.changeQuery,
        detail: {
          summary: "Delete a knowledge document",
          description:
            "The assistant stops citing it at once. With ?dry_run=true nothing is deleted: the test set runs with and without the document.",
        },
        response: { 200: t.Union([KnowledgeModel.deleteResponse, dryRunSchema]) },
      },
    )
    .get(
      "/search",
      async ({ principal, query }) => {
        // Any member: agents look answers up while they reply.
        const tenantId = tenantOf(principal, query.tenant_id);
        const embedder = await embedderForTenant(deps, tenantId);
        const data = await searchKnowledge(deps, tenantId, query.q, { limit: query.limit, embedder });
        return { query: query.q, embedding_model: embedder?.model ?? null, data };
      },
      {
        tenantAccess: true,
        rateLimit: "management",
        query: KnowledgeModel.searchQuery,
        response: { 200: KnowledgeModel.searchResponse },
        detail: {
          summary: "Search the knowledge base",
          description:
            "The passages the assistant would be given for this question: BM25, fused with vector ranks when an embedding model is set. Any member, agents included.",
        },
      },
    );
}
