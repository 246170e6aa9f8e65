import type { StoreQueries } from "../db/store.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { isPlanName, PLANS, type PlanName } from "../plans/plans.ts";

export interface KnowledgeUsage {
  plan: PlanName;
  documents: number;
  bytes: number;
  maxDocuments: number;
  maxBytes: number;
}

/** Through `db`: the store, or the transaction that is about to add a document. */
export async function getKnowledgeUsage(db: StoreQueries, tenantId: string): Promise<KnowledgeUsage> {
  const row = await db.knowledge.findKnowledgeUsage(tenantId);
  if (!row) throw notFound("tenant");
  const plan = isPlanName(row.plan) ? row.plan : "free";
  return {
    plan,
    documents: row.documents,
    bytes: row.bytes,
    maxDocuments: PLANS[plan].knowledgeDocuments,
    maxBytes: PLANS[plan].knowledgeBytes,
  };
}

/**
 * Refuses a document that would take the tenant past its plan: 402 `plan_limit`, naming the
 * limit (`knowledge_documents` or `knowledge_bytes`), its value and the current use, so the
 * owner knows whether to delete something or upgrade.
 */
export async function assertKnowledgeRoom(
  db: StoreQueries,
  tenantId: string,
  newBytes: number,
  replacing?: { bytes: number },
): Promise<void> {
  const usage = await getKnowledgeUsage(db, tenantId);
  // A document replaced by its new text takes no new place, only the difference in bytes.
  if (replacing) usage.bytes -= replacing.bytes;
  else if (usage.documents + 1 > usage.maxDocuments) {
    throw new AppError(
      "plan_limit",
      402,
      `The ${usage.plan} plan allows ${usage.maxDocuments} knowledge documents and this tenant has ${usage.documents}; delete one or upgrade the plan.`,
      { limit: "knowledge_documents", max: usage.maxDocuments, current: usage.documents },
    );
  }
  if (usage.bytes + newBytes > usage.maxBytes) {
    throw new AppError(
      "plan_limit",
      402,
      `The ${usage.plan} plan allows ${usage.maxBytes} bytes of knowledge text; this tenant uses ${usage.bytes} and the document has ${newBytes}.`,
      { limit: "knowledge_bytes", max: usage.maxBytes, current: usage.bytes, document: newBytes },
    );
  }
}

/**
 * A source produces at least one document, so a tenant has at most as many sources as its plan
 * has documents: 402 `plan_limit` naming `knowledge_sources` past that.
 */
export async function assertSourceRoom(db: StoreQueries, tenantId: string): Promise<void> {
  const usage = await getKnowledgeUsage(db, tenantId);
  const sources = await db.knowledgeSources.countSources(tenantId);
  if (sources + 1 > usage.maxDocuments) {
    throw new AppError(
      "plan_limit",
      402,
      `The ${usage.plan} plan allows ${usage.maxDocuments} knowledge sources and this tenant has ${sources}; delete one or upgrade the plan.`,
      { limit: "knowledge_sources", max: usage.maxDocuments, current: sources },
    );
  }
}
