/**
 * Retrieval quality of the knowledge base over a multilingual question set: a dental clinic's
 * fifteen documents (bench/fixtures/clinic-documents.ts, English, Portuguese and Spanish) and
 * visitor questions (bench/fixtures/clinic-questions.ts) — same-language paraphrases,
 * Portuguese and Spanish questions about English passages, and off-topic questions that must
 * retrieve nothing. A question is found at k when a chunk of its document holding its answer
 * phrase is among the first k hits; the off-topic column counts questions that got 0 chunks.
 *
 * Rows, all in the same run:
 *   - keyword only: BM25 and the relevance gate, the visitor's words as they are;
 *   - keyword + rewrite: the cross-language questions also searched with the standalone English
 *     question a configured model's rewrite step produces (the fixture's `rewrite`);
 *   - vectors (lexical hashing embedder), default fusion;
 *   - vectors (simulated multilingual embedder), once per fusion of src/knowledge/fusion.ts.
 *
 * Budgets: recall@5 ≥ 90 % keyword-only on same-language questions,
 * ≥ 95 % with vectors; 0 chunks on every off-topic question.
 *
 * Run: ./node_modules/.bin/bun bench/retrieval.ts   (misses are listed on stderr with BENCH_VERBOSE=1)
 */
import { updateBotConfig } from "../src/chat/bot-settings.ts";
import { addDocument } from "../src/knowledge/documents.ts";
import type { Embedder } from "../src/knowledge/embedder.ts";
import { DEFAULT_FUSION, FUSION_NAMES, type FusionName } from "../src/knowledge/fusion.ts";
import { searchKnowledge, type KnowledgeHit } from "../src/knowledge/search.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { CLINIC_DOCUMENTS } from "./fixtures/clinic-documents.ts";
import { CLINIC_QUESTIONS, type BenchQuestion } from "./fixtures/clinic-questions.ts";
import { conceptEmbedder, hashedEmbedder } from "./fixtures/embedders.ts";
import { createBenchDeps, markdownTable } from "./lib.ts";

interface Mode {
  label: string;
  embedder: Embedder | null;
  fusion?: FusionName;
  rewrite: boolean;
}

/** The simulated embedder counts shared concepts: its cosines run lower than a real model's, so its gate sits lower. */
const SIMULATED_MIN_SIMILARITY = 0.35;

const MODES: Mode[] = [
  { label: "keyword only", embedder: null, rewrite: false },
  { label: "keyword + model rewrite", embedder: null, rewrite: true },
  { label: `vectors, lexical hashing (${DEFAULT_FUSION})`, embedder: hashedEmbedder(), rewrite: false },
  ...FUSION_NAMES.map((fusion) => ({
    label: `vectors, simulated multilingual (${fusion})`,
    embedder: conceptEmbedder(),
    fusion,
    rewrite: false,
  })),
];

const verbose = process.env.BENCH_VERBOSE === "1";
const answers = (hit: KnowledgeHit, question: BenchQuestion): boolean =>
  hit.title === question.doc && hit.text.toLowerCase().includes((question.has ?? "").toLowerCase());

interface Tally {
  at1: number;
  at3: number;
  at5: number;
  count: number;
}
const tally = (): Tally => ({ at1: 0, at3: 0, at5: 0, count: 0 });
const pct = (part: number, whole: number): string => (whole === 0 ? "–" : `${((100 * part) / whole).toFixed(0)} %`);

async function run(mode: Mode): Promise<string[]> {
  const deps = createBenchDeps();
  const tenant = await createTenant(deps, { name: "Smile Dental", plan: "business" });
  await updateBotConfig(deps, tenant.id, { faq: [] });
  for (const document of CLINIC_DOCUMENTS)
    await addDocument(
      deps,
      tenant.id,
      { title: document.title, content: document.content, format: "markdown" },
      mode.embedder,
    );
  const same = tally();
  const cross = tally();
  let offClean = 0;
  let offCount = 0;
  for (const question of CLINIC_QUESTIONS) {
    const variants = mode.rewrite && question.rewrite ? [question.q, question.rewrite] : [question.q];
    const minSimilarity = mode.embedder?.model === "simulated-multilingual" ? SIMULATED_MIN_SIMILARITY : undefined;
    const hits = await searchKnowledge(
      deps,
      tenant.id,
      { variants },
      { limit: 5, embedder: mode.embedder, fusion: mode.fusion, minSimilarity },
    );
    if (question.kind === "off") {
      offCount++;
      if (hits.length === 0) offClean++;
      else if (verbose)
        console.error(`[${mode.label}] off-topic "${question.q}" got ${hits.map((hit) => hit.title).join(" | ")}`);
      continue;
    }
    const rank = hits.findIndex((hit) => answers(hit, question)) + 1;
    const bucket = question.kind === "same" ? same : cross;
    bucket.count++;
    if (rank === 1) bucket.at1++;
    if (rank >= 1 && rank <= 3) bucket.at3++;
    if (rank >= 1) bucket.at5++;
    if (verbose && rank !== 1 && (question.kind === "same" || mode.embedder || mode.rewrite)) {
      console.error(
        `[${mode.label}] "${question.q}" → rank ${rank || "none"}; got ${hits.map((hit) => `${hit.title} (${hit.coverage?.toFixed(2) ?? "–"}/${hit.similarity?.toFixed(2) ?? "–"})`).join(" | ")}`,
      );
    }
  }
  deps.dispose();
  return [
    mode.label,
    pct(same.at1, same.count),
    pct(same.at3, same.count),
    pct(same.at5, same.count),
    pct(cross.at1, cross.count),
    pct(cross.at5, cross.count),
    `${offClean}/${offCount}`,
  ];
}

const rows: string[][] = [];
for (const mode of MODES) rows.push(await run(mode));
const count = (kind: BenchQuestion["kind"]) => CLINIC_QUESTIONS.filter((question) => question.kind === kind).length;
console.log(
  `\n### Retrieval over ${CLINIC_DOCUMENTS.length} clinic documents, ${CLINIC_QUESTIONS.length} questions (${count("same")} same-language, ${count("cross")} cross-language, ${count("off")} off-topic)\n`,
);
console.log(
  markdownTable(["ranking", "same @1", "same @3", "same @5", "cross @1", "cross @5", "off-topic with 0 chunks"], rows),
);
