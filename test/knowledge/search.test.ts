import { afterEach, describe, expect, test } from "bun:test";
import { buildDeps, closeDeps, seedTenant, testSql } from "../helpers.ts";
import { updateBotConfig } from "../../src/chat/bot-settings.ts";
import { addDocument, deleteDocument, EMBED_BATCH, getDocument } from "../../src/knowledge/documents.ts";
import type { Embedder } from "../../src/knowledge/embedder.ts";
import { searchKnowledge } from "../../src/knowledge/search.ts";
import { conceptEmbedder, failingEmbedder } from "./fake-embedder.ts";

const CLINIC_GUIDE = `# Opening hours
We are open Monday to Friday from 8:00 to 18:00 and on Saturday mornings.

# Fees
A check-up is 45 EUR. A scale and polish is 60 EUR. Whitening is 250 EUR.

# Getting here
There is free parking behind the building, and tram 4 stops at the door.

# Young patients
We see children from their first tooth; toddlers get a free first visit.

# Emergencies
If you are in severe pain, call us before 10:00 for a same-day slot.`;

let deps: ReturnType<typeof buildDeps>;
afterEach(() => closeDeps(deps));

async function clinic(faq: unknown[] = []) {
  deps = buildDeps();
  const { tenant } = await seedTenant(deps, "Clinic");
  await updateBotConfig(deps, tenant.id, { faq });
  return tenant.id;
}

describe("searchKnowledge", () => {
  test("BM25 ranks the chunk that holds the asked words first, with its document and heading", async () => {
    const tenantId = await clinic();
    const document = await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      null,
    );
    const hits = await searchKnowledge(deps, tenantId, "is there parking near the building?");
    expect(hits[0]).toMatchObject({
      chunk_id: `${document.document_id}:2`,
      document_id: document.document_id,
      title: "Clinic guide",
      url: null,
      bm25_rank: 1,
    });
    expect(hits[0]?.text).toBe(
      "Getting here\nThere is free parking behind the building, and tram 4 stops at the door.",
    );
    expect(hits[0]?.score).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.vector_rank === undefined)).toBe(true);
    const whitening = await searchKnowledge(deps, tenantId, "whitening");
    expect(whitening).toHaveLength(1);
    expect(whitening[0]?.chunk_id).toBe(`${document.document_id}:1`);
  });

  test("the tenant's FAQ entries are searched too, titled by their question", async () => {
    const tenantId = await clinic([
      {
        id: "insurance",
        question: "Do you accept insurance?",
        answer: "We bill most insurers directly.",
        keywords: ["insurer"],
      },
    ]);
    await addDocument(deps, tenantId, { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" }, null);
    const hits = await searchKnowledge(deps, tenantId, "which insurers do you bill?");
    expect(hits[0]).toMatchObject({
      chunk_id: "faq:insurance",
      document_id: "faq:insurance",
      title: "Do you accept insurance?",
      url: null,
    });
    expect(hits[0]?.text).toBe("Do you accept insurance?\nWe bill most insurers directly.");
    // A change of the FAQ is seen at the next search, without a restart.
    await updateBotConfig(deps, tenantId, {
      faq: [{ id: "cards", question: "Can I pay by card?", answer: "Yes, all cards." }],
    });
    const after = await searchKnowledge(deps, tenantId, "insurance");
    expect(after.find((hit) => hit.document_id === "faq:insurance")).toBeUndefined();
  });

  test("with an embedder, vectors find a chunk that shares no word with the question; a strong hit from either list ranks first", async () => {
    const tenantId = await clinic();
    const embedder = conceptEmbedder();
    const document = await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      embedder,
    );
    // "kids" and "cost" are in no chunk: BM25 alone cannot reach "Young patients" or "Fees".
    const lexical = await searchKnowledge(deps, tenantId, "do you treat kids?");
    expect(lexical.map((hit) => hit.chunk_id)).not.toContain(`${document.document_id}:3`);
    const hybrid = await searchKnowledge(deps, tenantId, "do you treat kids?", { embedder, limit: 3 });
    // Only the one chunk about children is relevant: the others pass neither gate.
    expect(hybrid.map((hit) => hit.chunk_id)).toEqual([`${document.document_id}:3`]);
    expect(hybrid[0]).toMatchObject({ vector_rank: 1 });
    expect(hybrid[0]?.bm25_rank).toBeUndefined();
    expect(hybrid[0]?.similarity).toBeGreaterThan(0.9);
    const cost = await searchKnowledge(deps, tenantId, "what does a check-up cost?", { embedder });
    // Found by both rankings ("check-up" by its words, "cost" by concept).
    expect(cost[0]).toMatchObject({ chunk_id: `${document.document_id}:1`, bm25_rank: 1, vector_rank: 1 });
  });

  test("the relevance gate: a question the knowledge does not answer gets no chunk, by words or by vectors", async () => {
    const tenantId = await clinic([
      { id: "insurance", question: "Do you accept insurance?", answer: "We bill most insurers directly." },
    ]);
    await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      conceptEmbedder(),
    );
    expect(await searchKnowledge(deps, tenantId, "what's the weather like tomorrow?")).toEqual([]);
    expect(
      await searchKnowledge(deps, tenantId, "what's the weather like tomorrow?", { embedder: conceptEmbedder() }),
    ).toEqual([]);
    // "medicaid" is nowhere in the knowledge: matching "accept" alone is not enough.
    expect(await searchKnowledge(deps, tenantId, "do you accept medicaid?")).toEqual([]);
    const insured = await searchKnowledge(deps, tenantId, "do you accept insurance?");
    expect(insured[0]).toMatchObject({ chunk_id: "faq:insurance", coverage: 1 });
  });

  test("a follow-up's carried context weighs less than its own words", async () => {
    const tenantId = await clinic();
    const document = await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      null,
    );
    // "fees" alone would rank "Fees"; with the previous question carried in full it would rank "Emergencies".
    const hits = await searchKnowledge(deps, tenantId, {
      variants: ["and the fees?"],
      context: "severe pain call before 10:00",
    });
    expect(hits[0]?.chunk_id).toBe(`${document.document_id}:1`);
    const translated = await searchKnowledge(deps, tenantId, {
      variants: ["tem estacionamento?", "Is there parking?"],
    });
    expect(translated[0]?.chunk_id).toBe(`${document.document_id}:2`);
  });

  test("addDocument stores one vector per chunk under the embedder's model", async () => {
    const tenantId = await clinic();
    const embedder = conceptEmbedder("concepts-v1");
    const document = await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      embedder,
    );
    expect(embedder.calls).toHaveLength(1);
    expect(embedder.calls[0]).toHaveLength(5);
    expect(embedder.calls[0]?.[1]).toBe(
      "Fees\nA check-up is 45 EUR. A scale and polish is 60 EUR. Whitening is 250 EUR.",
    );
    const stored = await getDocument(deps, tenantId, document.document_id);
    expect(stored.chunks.map((chunk) => chunk.embedding_model)).toEqual(Array(5).fill("concepts-v1"));
    const blob = await (await testSql(deps)).get<{ embedding: Uint8Array }>(
      "SELECT embedding FROM knowledge_chunks LIMIT 1",
    );
    expect(blob?.embedding.byteLength).toBe(6 * 4);
  });

  test("a long document is embedded in batches, and a failed batch only leaves its own chunks without vectors", async () => {
    const tenantId = await clinic();
    const sections = Array.from({ length: EMBED_BATCH * 2 + 5 }, (_, n) => `# Topic ${n}\nFact number ${n}.`).join(
      "\n\n",
    );
    const batches: number[] = [];
    const flaky: Embedder = {
      model: "flaky",
      async embed(texts) {
        batches.push(texts.length);
        if (batches.length === 2) throw new Error("HTTP 503");
        return texts.map(() => [1, 0, 0]);
      },
    };
    const document = await addDocument(deps, tenantId, { title: "Long", content: sections, format: "markdown" }, flaky);
    expect(batches).toEqual([EMBED_BATCH, EMBED_BATCH, 5]);
    const models = (await getDocument(deps, tenantId, document.document_id)).chunks.map(
      (chunk) => chunk.embedding_model,
    );
    expect(models.slice(0, EMBED_BATCH)).toEqual(Array(EMBED_BATCH).fill("flaky"));
    expect(models.slice(EMBED_BATCH, EMBED_BATCH * 2)).toEqual(Array(EMBED_BATCH).fill(null));
    expect(models.slice(EMBED_BATCH * 2)).toEqual(Array(5).fill("flaky"));
  });

  test("vectors of another model are ignored and the chunks are re-embedded lazily at search", async () => {
    const tenantId = await clinic([
      { id: "kids", question: "Do you see children?", answer: "Yes, from the first tooth." },
    ]);
    const document = await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      conceptEmbedder("old-model"),
    );
    const next = conceptEmbedder("new-model");
    const hits = await searchKnowledge(deps, tenantId, "toddler", { embedder: next });
    // One call: the query first, then the five stale chunks and the FAQ entry.
    expect(next.calls).toHaveLength(1);
    expect(next.calls[0]?.[0]).toBe("toddler");
    expect(next.calls[0]).toHaveLength(7);
    expect(hits.some((hit) => hit.vector_rank !== undefined)).toBe(true);
    expect(
      (await getDocument(deps, tenantId, document.document_id)).chunks.map((chunk) => chunk.embedding_model),
    ).toEqual(Array(5).fill("new-model"));
    await searchKnowledge(deps, tenantId, "parking", { embedder: next });
    expect(next.calls[1]).toEqual(["parking"]);
  });

  test("a failing embedder degrades to BM25 instead of failing the search or the upload", async () => {
    const tenantId = await clinic();
    const document = await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      failingEmbedder,
    );
    expect(
      (await getDocument(deps, tenantId, document.document_id)).chunks.every((chunk) => chunk.embedding_model === null),
    ).toBe(true);
    const hits = await searchKnowledge(deps, tenantId, "parking", { embedder: failingEmbedder });
    expect(hits[0]).toMatchObject({ chunk_id: `${document.document_id}:2`, bm25_rank: 1 });
  });

  test("added and deleted documents are seen by the next search (the cached index is invalidated)", async () => {
    const tenantId = await clinic();
    expect(await searchKnowledge(deps, tenantId, "parking")).toEqual([]);
    const first = await addDocument(
      deps,
      tenantId,
      { title: "Guide", content: CLINIC_GUIDE, format: "markdown" },
      null,
    );
    expect((await searchKnowledge(deps, tenantId, "parking"))[0]?.document_id).toBe(first.document_id);
    await deleteDocument(deps, tenantId, first.document_id);
    expect(await searchKnowledge(deps, tenantId, "parking")).toEqual([]);
    // Same size as the deleted one: a count-only staleness probe would miss this replacement.
    const second = await addDocument(
      deps,
      tenantId,
      { title: "Guide", content: CLINIC_GUIDE, format: "markdown" },
      null,
    );
    expect((await searchKnowledge(deps, tenantId, "parking"))[0]?.document_id).toBe(second.document_id);
  });

  test("one tenant's search never returns another tenant's chunks", async () => {
    const tenantId = await clinic();
    const other = await seedTenant(deps, "Garage");
    await updateBotConfig(deps, other.tenant.id, { faq: [] });
    await addDocument(
      deps,
      tenantId,
      { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" },
      conceptEmbedder(),
    );
    await addDocument(
      deps,
      other.tenant.id,
      { title: "Garage", content: "# Parking\nCustomers park in bay 7.", format: "markdown" },
      conceptEmbedder(),
    );
    const hits = await searchKnowledge(deps, other.tenant.id, "parking fees children pain", {
      embedder: conceptEmbedder(),
      limit: 20,
    });
    expect(hits).toHaveLength(1);
    expect(hits[0]?.title).toBe("Garage");
    await expect(getDocument(deps, other.tenant.id, "doc_nope")).rejects.toThrow("No such document.");
  });

  test("limit caps the number of hits, between 1 and 20", async () => {
    const tenantId = await clinic();
    await addDocument(deps, tenantId, { title: "Clinic guide", content: CLINIC_GUIDE, format: "markdown" }, null);
    expect(await searchKnowledge(deps, tenantId, "free", { limit: 20 })).toHaveLength(2);
    expect(await searchKnowledge(deps, tenantId, "free", { limit: 1 })).toHaveLength(1);
    expect((await searchKnowledge(deps, tenantId, "free", { limit: 0 })).length).toBe(1);
  });
});
