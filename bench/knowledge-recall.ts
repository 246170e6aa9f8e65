/**
 * Retrieval quality and cost of the knowledge base (src/knowledge/).
 *
 * Recall: for each sector template, a tenant of that sector (its template FAQ) plus the
 * sector's knowledge document from bench/fixtures/knowledge-recall.ts; every question is
 * searched and scored recall@1 / recall@3 (is the expected chunk among the first 1 / 3 hits?),
 * and MRR. Rankings compared in the same run:
 *   - BM25 only (what a tenant without an embedding model gets);
 *   - hybrid (BM25 + vectors, the default fusion) with a deterministic *fake* embedder: hashed word and
 *     character-trigram features, no semantics. It shows what fusion costs or gains from
 *     surface similarity alone, not what a real embedding model would do;
 *   - hybrid with a real embedding model, when BENCH_EMBEDDING_BASE_URL and
 *     BENCH_EMBEDDING_MODEL name an OpenAI-compatible endpoint (e.g. Ollama's
 *     http://127.0.0.1:11434/v1 and nomic-embed-text), optional BENCH_EMBEDDING_API_KEY.
 *
 * Scale: one tenant with BENCH_KNOWLEDGE_CHUNKS (3,000) synthetic chunks: the first search
 * (index build) and the mean of later searches, BM25 and hybrid (256-dimension vectors).
 *
 * Run: npx bun bench/knowledge-recall.ts   (misses are listed on stderr)
 */
import type { Deps } from "../src/deps.ts";
import { addDocument } from "../src/knowledge/documents.ts";
import type { Embedder } from "../src/knowledge/embedder.ts";
import { searchKnowledge, type KnowledgeHit } from "../src/knowledge/search.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { hashedEmbedder } from "./fixtures/embedders.ts";
import { RECALL_SECTORS, type RecallQuestion } from "./fixtures/knowledge-recall.ts";
import { createBenchDeps } from "./lib.ts";

/** A real OpenAI-compatible embeddings endpoint, for an optional third column. */
function httpEmbedder(baseUrl: string, model: string, apiKey: string | undefined): Embedder {
  return {
    model,
    async embed(texts) {
      const response = await fetch(`${baseUrl.replace(/\/$/, "")}/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model, input: texts }),
      });
      if (!response.ok) throw new Error(`embeddings: HTTP ${response.status}`);
      const body = (await response.json()) as { data: Array<{ index: number; embedding: number[] }> };
      return body.data.sort((a, b) => a.index - b.index).map((row) => row.embedding);
    },
  };
}

const isExpected = (hit: KnowledgeHit, expected: string): boolean =>
  expected.startsWith("faq:")
    ? hit.document_id === expected
    : !hit.document_id.startsWith("faq:") && hit.text.startsWith(`${expected}\n`);

interface Score {
  questions: number;
  at1: number;
  at3: number;
  reciprocalRanks: number;
}

const emptyScore = (): Score => ({ questions: 0, at1: 0, at3: 0, reciprocalRanks: 0 });

async function evaluate(
  deps: Deps,
  tenantId: string,
  questions: RecallQuestion[],
  embedder: Embedder | null,
  label: string,
  score: Score,
): Promise<void> {
  for (const question of questions) {
    const hits = await searchKnowledge(deps, tenantId, question.q, { limit: 10, embedder });
    const rank = hits.findIndex((hit) => isExpected(hit, question.expect)) + 1;
    score.questions++;
    if (rank === 1) score.at1++;
    if (rank >= 1 && rank <= 3) score.at3++;
    if (rank > 0) score.reciprocalRanks += 1 / rank;
    if (rank === 0 || rank > 3) {
      console.error(
        `miss [${label}] "${question.q}" → expected ${question.expect}, rank ${rank === 0 ? "none" : rank}; got ${hits
          .slice(0, 3)
          .map((hit) => (hit.document_id.startsWith("faq:") ? hit.document_id : hit.text.split("\n")[0]))
          .join(" | ")}`,
      );
    }
  }
}

const percent = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)} %`;

async function recall(): Promise<void> {
  const modes: Array<{ label: string; embedder: () => Embedder | null }> = [
    { label: "BM25 only", embedder: () => null },
    { label: "hybrid, fake hashed embedder", embedder: () => hashedEmbedder() },
  ];
  const realUrl = process.env.BENCH_EMBEDDING_BASE_URL;
  const realModel = process.env.BENCH_EMBEDDING_MODEL;
  if (realUrl && realModel)
    modes.push({
      label: `hybrid, ${realModel}`,
      embedder: () => httpEmbedder(realUrl, realModel, process.env.BENCH_EMBEDDING_API_KEY),
    });

  const rows: string[] = [];
  const totals = modes.map(emptyScore);
  for (const sector of RECALL_SECTORS) {
    const cells: string[] = [];
    for (const [position, mode] of modes.entries()) {
      const deps = createBenchDeps();
      const tenant = await createTenant(deps, { name: sector.sector, sector: sector.sector });
      const embedder = mode.embedder();
      await addDocument(
        deps,
        tenant.id,
        { title: `${sector.sector} guide`, content: sector.document, format: "markdown" },
        embedder,
      );
      const score = emptyScore();
      await evaluate(deps, tenant.id, sector.questions, embedder, `${mode.label} / ${sector.sector}`, score);
      const total = totals[position] as Score;
      total.questions += score.questions;
      total.at1 += score.at1;
      total.at3 += score.at3;
      total.reciprocalRanks += score.reciprocalRanks;
      cells.push(`${percent(score.at3, score.questions)} (@1 ${percent(score.at1, score.questions)})`);
      deps.dispose();
    }
    rows.push(`| ${sector.sector} | ${sector.questions.length} | ${cells.join(" | ")} |`);
  }
  const questions = totals[0]?.questions ?? 0;
  console.log(`\n### Recall@3 (recall@1 in brackets), ${questions} questions\n`);
  console.log(`| sector | questions | ${modes.map((mode) => mode.label).join(" | ")} |`);
  console.log(`| --- | --- | ${modes.map(() => "---").join(" | ")} |`);
  for (const row of rows) console.log(row);
  console.log(
    `| **all** | ${questions} | ${totals.map((total) => `**${percent(total.at3, total.questions)}** (@1 ${percent(total.at1, total.questions)}, MRR ${(total.reciprocalRanks / total.questions).toFixed(3)})`).join(" | ")} |`,
  );
}

const WORDS =
  "appointment price parking insurance whitening implant crown filling brace aligner cleaning hygiene gum root canal extraction emergency weekend evening payment card cash invoice refund voucher child family senior student discount".split(
    " ",
  );

async function scale(): Promise<void> {
  const chunks = Number(process.env.BENCH_KNOWLEDGE_CHUNKS ?? 3000);
  const perDocument = 30;
  const deps = createBenchDeps();
  const tenant = await createTenant(deps, { name: "scale", plan: "business" });
  const embedder = hashedEmbedder(256);
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const sentence = () => Array.from({ length: 40 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
  for (let d = 0; d < chunks / perDocument; d++) {
    const sections = Array.from(
      { length: perDocument },
      (_, s) => `# Section ${d}-${s}\n${sentence()}.\n\n${sentence()}.`,
    ).join("\n\n");
    await addDocument(deps, tenant.id, { title: `Document ${d}`, content: sections, format: "markdown" }, embedder);
  }
  const queries = Array.from(
    { length: 50 },
    () =>
      `${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[Math.floor(random() * WORDS.length)]} for my ${WORDS[Math.floor(random() * WORDS.length)]}`,
  );
  const time = async (mode: Embedder | null): Promise<{ first: number; mean: number }> => {
    // A new document invalidates the index: the first search pays the build.
    await addDocument(
      deps,
      tenant.id,
      { title: "invalidate", content: `# x\n${sentence()}`, format: "markdown" },
      mode ? embedder : null,
    );
    let started = performance.now();
    await searchKnowledge(deps, tenant.id, queries[0] as string, { embedder: mode });
    const first = performance.now() - started;
    started = performance.now();
    for (const query of queries) await searchKnowledge(deps, tenant.id, query, { embedder: mode });
    return { first, mean: (performance.now() - started) / queries.length };
  };
  const lexical = await time(null);
  const hybrid = await time(embedder);
  console.log(`\n### One tenant with ${chunks.toLocaleString("en")} chunks\n`);
  console.log("| ranking | first search after a change (index build) | later searches, mean |");
  console.log("| --- | --- | --- |");
  console.log(`| BM25 only | ${lexical.first.toFixed(1)} ms | ${lexical.mean.toFixed(2)} ms |`);
  console.log(
    `| hybrid (256-dim vectors, embedder time ≈ 0) | ${hybrid.first.toFixed(1)} ms | ${hybrid.mean.toFixed(2)} ms |`,
  );
  deps.dispose();
}

await recall();
await scale();
