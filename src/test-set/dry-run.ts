import type { Deps } from "../deps.ts";
import type { BotConfig } from "../chat/engine/bot-config.ts";
import { getBotConfig, mergeBotConfigPatch } from "../chat/bot-settings.ts";
import { prepareDocument, type NewDocument } from "../knowledge/documents.ts";
import type { KnowledgeProposal } from "../knowledge/tenant-index.ts";
import { notFound } from "../lib/app-error.ts";
import { changesBetween, evaluateTestSet, type CaseChange, type SetOutcome } from "./run-test-set.ts";

export interface DryRunReport {
  dry_run: true;
  /** Nothing was stored: the change happens only when the same request is sent without dry_run. */
  saved: false;
  /** One line for a confirmation dialog: "3 cases of 4 pass now, 1 would fail after this change". */
  summary: string;
  current: SetOutcome;
  proposed: SetOutcome;
  /** Cases whose verdict the change would flip. */
  changes: CaseChange[];
}

const cases = (n: number) => `${n} case${n === 1 ? "" : "s"}`;

function summarize(changes: readonly CaseChange[], current: SetOutcome): string {
  const breaking = changes.filter((change) => change.after === "failed").length;
  const fixing = changes.filter((change) => change.after === "passed").length;
  const parts = [`${cases(current.passed)} of ${current.passed + current.failed} pass now`];
  if (breaking > 0) parts.push(`${breaking} would fail after this change`);
  if (fixing > 0) parts.push(`${fixing} would pass after this change`);
  if (breaking === 0 && fixing === 0) parts.push("no verdict changes");
  return parts.join(", ");
}

/**
 * The test set as things are and as a change would leave them, side by side; nothing is
 * stored (not even a kept run: a proposal is not the bot's state).
 */
async function compare(
  deps: Deps,
  tenantId: string,
  current: BotConfig,
  proposed: { config: BotConfig; knowledge: KnowledgeProposal },
): Promise<DryRunReport> {
  const rows = await deps.store.testSet.listTestCases(tenantId);
  const now = await evaluateTestSet(deps, tenantId, current, rows);
  const after = await evaluateTestSet(deps, tenantId, proposed.config, rows, proposed.knowledge);
  const changes = changesBetween(now.results, after.results);
  return { dry_run: true, saved: false, summary: summarize(changes, now), current: now, proposed: after, changes };
}

/** PATCH /chatbot/config?dry_run=true: the configuration the patch would make (422 as a save would), tested. */
export async function dryRunConfigChange(
  deps: Deps,
  tenantId: string,
  patch: unknown,
): Promise<DryRunReport & { config: BotConfig }> {
  const current = await getBotConfig(deps, tenantId);
  const config = mergeBotConfigPatch(deps, current, patch);
  // The assistant searches the FAQ as part of the knowledge: the proposed one, not the stored one.
  return { ...(await compare(deps, tenantId, current, { config, knowledge: { faq: config.faq } })), config };
}

/** The placeholder id a proposed document's chunks carry in a dry run's results (`source`). */
export const PROPOSED_DOCUMENT_ID = "doc_proposed";

/**
 * POST /knowledge/documents?dry_run=true: the document chunked as a save would (422 and 402 as
 * a save would), searched beside the stored knowledge by the model; nothing is embedded or stored.
 */
export async function dryRunAddDocument(deps: Deps, tenantId: string, input: NewDocument): Promise<DryRunReport> {
  const { title, chunks } = await prepareDocument(deps, tenantId, input);
  const addedChunks = chunks.map((chunk, position) => ({
    id: -1 - position,
    documentId: PROPOSED_DOCUMENT_ID,
    position,
    heading: chunk.heading,
    text: chunk.text,
    embedding: null,
    embeddingModel: null,
    title,
    sourceUrl: input.sourceUrl ?? null,
  }));
  const config = await getBotConfig(deps, tenantId);
  return compare(deps, tenantId, config, { config, knowledge: { addedChunks } });
}

/** DELETE /knowledge/documents/:id?dry_run=true: the knowledge without that document (404 as a delete would). */
export async function dryRunDeleteDocument(deps: Deps, tenantId: string, documentId: string): Promise<DryRunReport> {
  if (!(await deps.store.knowledge.findDocument(tenantId, documentId))) throw notFound("document");
  const config = await getBotConfig(deps, tenantId);
  return compare(deps, tenantId, config, { config, knowledge: { removedDocumentIds: [documentId] } });
}
