import type { Deps } from "../deps.ts";
import { preparedFor } from "../db/prepared.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { isPlanName, PLANS, type PlanName } from "../billing/plans.ts";

const statements = preparedFor((sqlite) => ({
  usage: sqlite.prepare<{ plan: string; documents: number; bytes: number }, [string]>(
    `SELECT t.plan,
            (SELECT count(*) FROM knowledge_documents d WHERE d.tenant_id = t.id) AS documents,
            (SELECT coalesce(sum(d.bytes), 0) FROM knowledge_documents d WHERE d.tenant_id = t.id) AS bytes
       FROM tenants t WHERE t.id = ?`,
  ),
}));

export interface KnowledgeUsage {
  plan: PlanName;
  documents: number;
  bytes: number;
  maxDocuments: number;
  maxBytes: number;
}

export function getKnowledgeUsage(deps: Deps, tenantId: string): KnowledgeUsage {
  const row = statements(deps.sqlite).usage.get(tenantId);
  if (!row) throw notFound("tenant");
  const plan = isPlanName(row.plan) ? row.plan : "free";
  return { plan, documents: row.documents, bytes: row.bytes, maxDocuments: PLANS[plan].knowledgeDocuments, maxBytes: PLANS[plan].knowledgeBytes };
}

/**
 * Refuses a document that would take the tenant past its plan: 402 `plan_limit`, naming the
 * limit (`knowledge_documents` or `knowledge_bytes`), its value and the current use, so the
 * owner knows whether to delete something or upgrade.
 */
export function assertKnowledgeRoom(deps: Deps, tenantId: string, newBytes: number): void {
  const usage = getKnowledgeUsage(deps, tenantId);
  if (usage.documents + 1 > usage.maxDocuments) {
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
