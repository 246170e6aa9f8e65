import { and, asc, count, eq, gt } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { tenants, webhookRules } from "../db/schema.ts";
import { isPlanName, PLANS } from "../billing/plans.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { toPage, type Page } from "../lib/page.ts";
import { invalidField } from "../lib/validate.ts";
import { EVENT_NAMES, isEventName } from "./events.ts";
import { checkWebhookUrl } from "./ssrf.ts";

export interface RuleInput {
  name: string;
  event: string;
  url: string;
  secret: string;
  conditions?: { min_confidence?: number };
  active: boolean;
}

/** A rule as the API shows it: never with its secret. */
export interface RuleView {
  rule_id: string;
  name: string;
  event: string;
  url: string;
  conditions: { min_confidence?: number };
  active: boolean;
  created_at: string;
  updated_at: string;
}

type RuleRow = typeof webhookRules.$inferSelect;

export function toRuleView(row: RuleRow): RuleView {
  return {
    rule_id: row.id,
    name: row.name,
    event: row.event,
    url: row.url,
    conditions: row.minConfidence === null ? {} : { min_confidence: row.minConfidence },
    active: row.active,
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
  };
}

async function validateRuleFields(deps: Deps, input: Partial<RuleInput>): Promise<Partial<RuleInput>> {
  const out: Partial<RuleInput> = { ...input };
  if (input.name !== undefined) {
    out.name = input.name.trim();
    if (out.name.length < 1 || out.name.length > 100) throw invalidField("name", "must be 1 to 100 characters");
  }
  if (input.event !== undefined && !isEventName(input.event)) throw invalidField("event", `must be one of: ${EVENT_NAMES.join(", ")}`);
  if (input.secret !== undefined && (input.secret.length < 16 || input.secret.length > 256)) {
    throw invalidField("secret", "must be 16 to 256 characters");
  }
  if (input.conditions !== undefined) {
    const extra = Object.keys(input.conditions).filter((key) => key !== "min_confidence");
    if (extra.length > 0) throw invalidField("conditions", `unknown key ${extra[0]}: only min_confidence is supported`);
    const value = input.conditions.min_confidence;
    if (value !== undefined && !(value >= 0 && value <= 1)) throw invalidField("conditions.min_confidence", "must be between 0 and 1");
  }
  if (input.url !== undefined) {
    if (input.url.length > 2048) throw invalidField("url", "must be at most 2048 characters");
    out.url = (await checkWebhookUrl(input.url, { allowPrivate: deps.config.allowPrivateWebhooks, resolve: deps.resolveHost })).href;
  }
  return out;
}

const duplicateRule = () => new AppError("rule_exists", 409, "This tenant already has a rule for that event and URL.");

function findDuplicate(deps: Deps, tenantId: string, event: string, url: string, exceptId?: string): boolean {
  const row = deps.db.select({ id: webhookRules.id }).from(webhookRules).where(and(eq(webhookRules.tenantId, tenantId), eq(webhookRules.event, event), eq(webhookRules.url, url))).get();
  return row !== undefined && row.id !== exceptId;
}

/**
 * Refuses a rule past the plan's cap: 402 `plan_limit` naming the limit, its value and the
 * current count. Every rule turns each matching event into one more delivery, so an unbounded
 * rule count is an unbounded share of the delivery pool. Rules kept from a bigger plan after a
 * downgrade stay; only new ones are refused.
 */
function assertRuleRoom(deps: Deps, tenantId: string): void {
  const tenant = deps.db.select({ plan: tenants.plan }).from(tenants).where(eq(tenants.id, tenantId)).get();
  if (!tenant) throw notFound("tenant");
  const plan = isPlanName(tenant.plan) ? tenant.plan : "free";
  const max = PLANS[plan].webhookRules;
  const current = deps.db.select({ n: count() }).from(webhookRules).where(eq(webhookRules.tenantId, tenantId)).get()?.n ?? 0;
  if (current >= max) {
    throw new AppError("plan_limit", 402, `The ${plan} plan allows ${max} webhook rules and this tenant has ${current}; delete one or upgrade the plan.`, {
      limit: "webhook_rules",
      max,
      current,
    });
  }
}

export async function createRule(deps: Deps, tenantId: string, input: RuleInput): Promise<RuleView> {
  const valid = (await validateRuleFields(deps, input)) as RuleInput;
  // Counted after the awaits above and right before the insert, with no await in between:
  // two concurrent creates cannot both pass the cap.
  assertRuleRoom(deps, tenantId);
  if (findDuplicate(deps, tenantId, valid.event, valid.url)) throw duplicateRule();
  const now = deps.clock.now();
  const row: RuleRow = {
    id: newId("rule", now),
    tenantId,
    name: valid.name,
    event: valid.event,
    url: valid.url,
    secret: valid.secret,
    minConfidence: valid.conditions?.min_confidence ?? null,
    active: valid.active,
    createdAt: now,
    updatedAt: now,
  };
  deps.db.insert(webhookRules).values(row).run();
  return toRuleView(row);
}

/** The rule if it belongs to the tenant; another tenant's rule is "not found", never "forbidden". */
export function getRuleRow(deps: Deps, tenantId: string, ruleId: string): RuleRow {
  const row = deps.db.select().from(webhookRules).where(and(eq(webhookRules.id, ruleId), eq(webhookRules.tenantId, tenantId))).get();
  if (!row) throw notFound("rule");
  return row;
}

export async function updateRule(deps: Deps, tenantId: string, ruleId: string, patch: Partial<RuleInput>): Promise<RuleView> {
  const current = getRuleRow(deps, tenantId, ruleId);
  if (Object.keys(patch).length === 0) throw invalidField("(body)", "name at least one field to change");
  const valid = await validateRuleFields(deps, patch);
  const event = valid.event ?? current.event;
  const url = valid.url ?? current.url;
  if ((event !== current.event || url !== current.url) && findDuplicate(deps, tenantId, event, url, ruleId)) throw duplicateRule();
  const changes: Partial<RuleRow> = { updatedAt: deps.clock.now() };
  if (valid.name !== undefined) changes.name = valid.name;
  if (valid.event !== undefined) changes.event = valid.event;
  if (valid.url !== undefined) changes.url = valid.url;
  if (valid.secret !== undefined) changes.secret = valid.secret;
  if (valid.active !== undefined) changes.active = valid.active;
  if (valid.conditions !== undefined) changes.minConfidence = valid.conditions.min_confidence ?? null;
  deps.db.update(webhookRules).set(changes).where(eq(webhookRules.id, ruleId)).run();
  return toRuleView({ ...current, ...changes });
}

/** Deletes a rule. Its pending deliveries are cancelled by the scheduler (the rule is gone); the log stays. */
export function deleteRule(deps: Deps, tenantId: string, ruleId: string): void {
  getRuleRow(deps, tenantId, ruleId);
  deps.db.delete(webhookRules).where(eq(webhookRules.id, ruleId)).run();
}

export function listRules(deps: Deps, tenantId: string, options: { limit: number; cursor?: string }): Page<RuleView> {
  const conditions = [eq(webhookRules.tenantId, tenantId)];
  if (options.cursor) conditions.push(gt(webhookRules.id, options.cursor));
  const rows = deps.db.select().from(webhookRules).where(and(...conditions)).orderBy(asc(webhookRules.id)).limit(options.limit + 1).all();
  return toPage(rows, options.limit, (row) => row.id, toRuleView);
}
