import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, login, seedTenant, type TestContext } from "../helpers.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { PLANS } from "../../src/plans/plans.ts";
import { CONCEPTS } from "../knowledge/fake-embedder.ts";

const GUIDE =
  "# Opening hours\nMonday to Friday, 8:00 to 18:00.\n\n# Getting here\nFree parking behind the building.\n\n# Young patients\nWe see children from their first tooth.";

let context: TestContext;
afterEach(() => context.close());

async function setup(overrides: Parameters<typeof buildTestApp>[0] = {}) {
  context = buildTestApp(overrides);
  const seeded = await seedTenant(context.deps, "Clinic");
  const key = { "x-api-key": seeded.apiKey };
  await context.request("PATCH", "/api/v1/chatbot/config", { headers: key, body: { faq: [] } });
  return { ...seeded, key };
}

const post = (headers: Record<string, string>, body: unknown) =>
  context.request("POST", "/api/v1/knowledge/documents", { headers, body });

describe("knowledge API", () => {
  test("an API key adds, lists, reads, searches and deletes a document", async () => {
    const { key } = await setup();
    const created = await post(key, { title: "Clinic guide", content: GUIDE, format: "markdown" });
    expect(created.status).toBe(201);
    const document = (await created.json()) as {
      document_id: string;
      chunk_count: number;
      format: string;
      source_url: string | null;
    };
    expect(document).toMatchObject({ chunk_count: 3, format: "markdown", source_url: null });
    expect(document.document_id).toMatch(/^doc_/);

    const list = await (await context.request("GET", "/api/v1/knowledge/documents", { headers: key })).json();
    expect(list).toMatchObject({
      data: [{ document_id: document.document_id, title: "Clinic guide" }],
      next_cursor: null,
    });

    const one = (await (
      await context.request("GET", `/api/v1/knowledge/documents/${document.document_id}`, { headers: key })
    ).json()) as { content: string; chunks: Array<{ heading: string }> };
    expect(one.content).toBe(GUIDE);
    expect(one.chunks.map((chunk) => chunk.heading)).toEqual(["Opening hours", "Getting here", "Young patients"]);

    const search = await context.request("GET", "/api/v1/knowledge/search?q=where%20can%20I%20park", { headers: key });
    expect(search.status).toBe(200);
    const found = (await search.json()) as {
      query: string;
      embedding_model: string | null;
      data: Array<{ chunk_id: string; text: string; score: number; bm25_rank: number }>;
    };
    expect(found).toMatchObject({ query: "where can I park", embedding_model: null });
    expect(found.data[0]).toMatchObject({
      chunk_id: `${document.document_id}:1`,
      text: "Getting here\nFree parking behind the building.",
      bm25_rank: 1,
    });

    const deleted = await context.request("DELETE", `/api/v1/knowledge/documents/${document.document_id}`, {
      headers: key,
    });
    expect(await deleted.json()).toEqual({ ok: true, document_id: document.document_id, deleted: true });
    expect(
      (await context.request("GET", `/api/v1/knowledge/documents/${document.document_id}`, { headers: key })).status,
    ).toBe(404);
    const empty = (await (
      await context.request("GET", "/api/v1/knowledge/search?q=parking", { headers: key })
    ).json()) as { data: unknown[] };
    expect(empty.data).toEqual([]);
  });

  test("HTML content is stored as its text and keeps the source_url it was given", async () => {
    const { key } = await setup();
    const created = await post(key, {
      title: "Prices",
      format: "html",
      source_url: "https://clinic.example/prices",
      content: "<h1>Prices</h1><p>Check-up &amp; X-ray: 45 EUR</p><script>track()</script>",
    });
    expect(created.status).toBe(201);
    const document = (await created.json()) as { document_id: string; source_url: string };
    expect(document.source_url).toBe("https://clinic.example/prices");
    const stored = (await (
      await context.request("GET", `/api/v1/knowledge/documents/${document.document_id}`, { headers: key })
    ).json()) as { content: string };
    expect(stored.content).toBe("# Prices\n\nCheck-up & X-ray: 45 EUR");
    const search = (await (
      await context.request("GET", "/api/v1/knowledge/search?q=x-ray", { headers: key })
    ).json()) as { data: Array<{ url: string; text: string }> };
    expect(search.data[0]).toEqual(
      expect.objectContaining({ url: "https://clinic.example/prices", text: "Prices\nCheck-up & X-ray: 45 EUR" }),
    );
  });

  test("an owner's Bearer token works, an agent's is refused with 403, no credential with 401", async () => {
    const { tenant, email } = await setup();
    const owner = await login(context, email);
    const ownerHeaders = { authorization: `Bearer ${owner.access_token}` };
    expect((await post(ownerHeaders, { title: "T", content: "Some text.", format: "text" })).status).toBe(201);
    await createUser(context.deps, {
      email: "agent@clinic.test",
      tenantId: tenant.id,
      role: "agent",
      password: "correct horse battery",
    });
    const agent = await login(context, "agent@clinic.test");
    const agentHeaders = { authorization: `Bearer ${agent.access_token}` };
    expect((await context.request("GET", "/api/v1/knowledge/documents", { headers: agentHeaders })).status).toBe(403);
    expect((await post(agentHeaders, { title: "T", content: "x", format: "text" })).status).toBe(403);
    expect((await context.request("GET", "/api/v1/knowledge/search?q=text")).status).toBe(401);
  });

  test("another tenant's document is a 404 for read and delete, and never appears in its search", async () => {
    const { key } = await setup();
    const other = await seedTenant(context.deps, "Garage");
    const otherKey = { "x-api-key": other.apiKey };
    const document = (await (
      await post(key, { title: "Clinic guide", content: GUIDE, format: "markdown" })
    ).json()) as { document_id: string };
    const read = await context.request("GET", `/api/v1/knowledge/documents/${document.document_id}`, {
      headers: otherKey,
    });
    expect(read.status).toBe(404);
    expect(await read.json()).toEqual({ error: "document_not_found", message: "No such document." });
    expect(
      (await context.request("DELETE", `/api/v1/knowledge/documents/${document.document_id}`, { headers: otherKey }))
        .status,
    ).toBe(404);
    const list = (await (
      await context.request("GET", "/api/v1/knowledge/documents", { headers: otherKey })
    ).json()) as { data: unknown[] };
    expect(list.data).toEqual([]);
    const search = (await (
      await context.request("GET", "/api/v1/knowledge/search?q=parking%20children%20opening", { headers: otherKey })
    ).json()) as { data: Array<{ document_id: string }> };
    expect(search.data.some((hit) => hit.document_id === document.document_id)).toBe(false);
    expect(
      (await context.request("GET", `/api/v1/knowledge/documents?tenant_id=${other.tenant.id}`, { headers: key }))
        .status,
    ).toBe(404);
  });

  test("bad bodies and queries are 422 validation failures, never 500", async () => {
    const { key } = await setup();
    const cases: Array<[unknown, string]> = [
      [{}, "title"],
      [{ title: "T", content: "x" }, "format"],
      [{ title: "T", content: "x", format: "pdf" }, "format"],
      [{ title: "", content: "x", format: "text" }, "title"],
      [{ title: "T", content: "x", format: "text", extra: true }, "extra"],
      [{ title: "T", content: "x", format: "text", source_url: "not a url" }, "source_url"],
      [{ title: "T", content: "   \n ", format: "text" }, "content"],
      [{ title: "T", content: "<script>only()</script>", format: "html" }, "content"],
      [{ url: "not a url" }, "url"],
      [{ url: "https://example.com", content: "both kinds" }, "content"],
    ];
    for (const [body, field] of cases) {
      const response = await post(key, body);
      expect(response.status).toBe(422);
      const error = (await response.json()) as { error: string; message: string };
      expect(error.error).toBe("validation_failed");
      expect(error.message).toContain(field);
    }
    for (const query of ["", "?q=", "?q=x&limit=0", "?q=x&limit=21", "?q=x&limit=1.5", "?q=x&other=1"]) {
      expect((await context.request("GET", `/api/v1/knowledge/search${query}`, { headers: key })).status).toBe(422);
    }
  });

  test("a private URL is refused with 422 and the plan limit with 402 naming it", async () => {
    const { key } = await setup({ allowPrivateWebhooks: false });
    const refused = await post(key, { url: "http://127.0.0.1:9/secret" });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toContain("loopback");
    for (let n = 0; n < PLANS.free.knowledgeDocuments; n++)
      expect((await post(key, { title: `Doc ${n}`, content: `Fact ${n}.`, format: "text" })).status).toBe(201);
    const over = await post(key, { title: "One more", content: "Fact.", format: "text" });
    expect(over.status).toBe(402);
    expect(await over.json()).toMatchObject({
      error: "plan_limit",
      details: { limit: "knowledge_documents", max: PLANS.free.knowledgeDocuments },
    });
  });

  test("the routes appear in the OpenAPI document", async () => {
    await setup();
    const spec = (await (await context.request("GET", "/docs/json")).json()) as { paths: Record<string, unknown> };
    for (const path of ["/api/v1/knowledge/documents", "/api/v1/knowledge/documents/{id}", "/api/v1/knowledge/search"])
      expect(spec.paths[path]).toBeDefined();
  });
});

describe("knowledge API with the tenant's embedding model", () => {
  const received: Array<{ model: string; input: string[]; authorization: string | null }> = [];
  let provider: ReturnType<typeof Bun.serve>;
  const vector = (text: string) => {
    const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    return [...CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length), 0.01];
  };
  beforeAll(() => {
    provider = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        if (new URL(request.url).pathname !== "/v1/embeddings") return new Response("not found", { status: 404 });
        const body = (await request.json()) as { model: string; input: string[] };
        received.push({ ...body, authorization: request.headers.get("authorization") });
        return Response.json({
          object: "list",
          data: body.input.map((text, index) => ({ object: "embedding", index, embedding: vector(text) })),
          model: body.model,
        });
      },
    });
  });
  afterAll(() => provider.stop(true));

  test("documents are embedded through POST {base_url}/embeddings and search fuses both rankings", async () => {
    const { key } = await setup({ allowPrivateWebhooks: true });
    const patched = await context.request("PATCH", "/api/v1/chatbot/config", {
      headers: key,
      body: {
        ai: {
          enabled: true,
          base_url: `http://127.0.0.1:${provider.port}/v1`,
          model: "chat-model",
          embedding_model: "embed-model",
          api_key: "sk-tenant",
        },
      },
    });
    expect(patched.status).toBe(200);
    const document = (await (
      await post(key, { title: "Clinic guide", content: GUIDE, format: "markdown" })
    ).json()) as { document_id: string };
    expect(received.at(-1)).toEqual({
      model: "embed-model",
      input: [
        "Opening hours\nMonday to Friday, 8:00 to 18:00.",
        "Getting here\nFree parking behind the building.",
        "Young patients\nWe see children from their first tooth.",
      ],
      authorization: "Bearer sk-tenant",
    });
    // "kids" is in no chunk: only the vector ranking can find "Young patients".
    const search = (await (
      await context.request("GET", "/api/v1/knowledge/search?q=do%20you%20treat%20kids", { headers: key })
    ).json()) as { embedding_model: string; data: Array<{ chunk_id: string; vector_rank?: number }> };
    expect(search.embedding_model).toBe("embed-model");
    expect(search.data[0]).toMatchObject({ chunk_id: `${document.document_id}:2`, vector_rank: 1 });
    expect(received.at(-1)?.input).toEqual(["do you treat kids"]);
  });
});
