import type { Database } from "bun:sqlite";
import { eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import type { WebhookRuleRow } from "../rows.ts";
import { webhookRules } from "../schema.ts";
import type { WebhookRuleQueries } from "../store-webhooks.ts";
import { selectColumns } from "./columns.ts";
import type { SyncOf } from "./gate.ts";

type RawRule = Omit<WebhookRuleRow, "active"> & { active: number };

const toRule = (row: RawRule): WebhookRuleRow => ({ ...row, active: row.active === 1 });

export function sqliteWebhookRules(sqlite: Database, db: Db): SyncOf<WebhookRuleQueries> {
  const columns = selectColumns(webhookRules);
  const byId = sqlite.prepare<RawRule, [string, string]>(`SELECT ${columns} FROM webhook_rules WHERE id = ? AND tenant_id = ?`);
  const idByTarget = sqlite.prepare<{ id: string }, [string, string, string]>("SELECT id FROM webhook_rules WHERE tenant_id = ? AND event = ? AND url = ?");
  const countOfTenant = sqlite.prepare<{ n: number }, [string]>("SELECT count(*) AS n FROM webhook_rules WHERE tenant_id = ?");
  const insert = sqlite.prepare(
    "INSERT INTO webhook_rules (id, tenant_id, name, event, url, secret, min_confidence, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const remove = sqlite.prepare("DELETE FROM webhook_rules WHERE id = ?");
  const list = sqlite.prepare<RawRule, [string, string | null, number]>(
    `SELECT ${columns} FROM webhook_rules WHERE tenant_id = ?1 AND (?2 IS NULL OR id > ?2) ORDER BY id LIMIT ?3`,
  );
  return {
    findRule: (tenantId, ruleId) => {
      const row = byId.get(ruleId, tenantId);
      return row ? toRule(row) : null;
    },
    findRuleIdByTarget: (tenantId, event, url) => idByTarget.get(tenantId, event, url)?.id ?? null,
    countRules: (tenantId) => countOfTenant.get(tenantId)?.n ?? 0,
    insertRule: (row) => {
      insert.run(row.id, row.tenantId, row.name, row.event, row.url, row.secret, row.minConfidence, row.active ? 1 : 0, row.createdAt, row.updatedAt);
    },
    // Any subset of columns: the query builder, as rule edits are rare.
    updateRule: (ruleId, changes) => {
      db.update(webhookRules).set(changes).where(eq(webhookRules.id, ruleId)).run();
    },
    deleteRule: (ruleId) => {
      remove.run(ruleId);
    },
    listRules: (tenantId, afterId, limit) => list.all(tenantId, afterId, limit).map(toRule),
  };
}
