import type { KnowledgeSourceRow, Store, StoreQueries, Transaction } from "../db/store.ts";
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

/**
 * Runs `work` in a transaction that first takes the tenant's knowledge lock, so a check of the
 * plan's room and the insert after it are one step: on PostgreSQL two concurrent adds would
 * otherwise each read the usage before the other's insert and both pass a cap of one.
 */
export function inKnowledgeRoom<T>(store: Store, tenantId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return store.transaction(async (tx) => {
    await tx.tenants.lockPlanCap(tenantId, "knowledge");
    return work(tx);
  });
}

/** A new source stored if the plan has room for it (402 `plan_limit` naming `knowledge_sources` if not). */
export function insertSourceInRoom(store: Store, row: KnowledgeSourceRow): Promise<void> {
  return inKnowledgeRoom(store, row.tenantId, async (tx) => {
    await assertSourceRoom(tx, row.tenantId);
    await tx.knowledgeSources.insertSource(row);
  });
}
