import type { Deps } from "../deps.ts";
import type { StoreQueries, WebhookRuleRow } from "../db/store.ts";
import { assertPlanRoom } from "../plans/plan-cap.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { toPage, type Page } from "../lib/page.ts";
import { invalidField } from "../lib/validate.ts";
import { EVENT_NAMES, isEventName } from "./events.ts";
import { checkWebhookUrl } from "../lib/ssrf.ts";
import { RULE_ORDERINGS, type RuleOrdering } from "../db/schema-webhooks.ts";

export { RULE_ORDERINGS, type RuleOrdering };

export interface RuleInput {
  name: string;
  event: string;
  url: string;
  secret: string;
  conditions?: { min_confidence?: number };
  active: boolean;
  /** Sends per second at most; null (on PATCH) removes the limit. */
  rate_limit_per_s?: number | null;
  /** "per_session": the rule's deliveries join their session's ordered stream. Default "none". */
  ordering?: string;
}

/** A rule as the API shows it: never with its secret. */
export interface RuleView {
  rule_id: string;
  name: string;
  event: string;
  url: string;
  conditions: { min_confidence?: number };
  active: boolean;
  rate_limit_per_s: number | null;
  ordering: RuleOrdering;
  /** While a rotation's overlap lasts: when the replaced secret stops signing. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

type RuleRow = WebhookRuleRow;

export function toRuleView(row: RuleRow): RuleView {
  return {
    rule_id: row.id,
    name: row.name,
    event: row.event,
    url: row.url,
    conditions: row.minConfidence === null ? {} : { min_confidence: row.minConfidence },
    active: row.active,
    rate_limit_per_s: row.rateLimitPerS,
    ordering: row.ordering,
    previous_secret_expires_at: row.previousSecretUntil === null ? null : toIso(row.previousSecretUntil),
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
  };
}

/** The highest per-rule rate limit: above it, the scheduler's own throughput is the limit. */
export const MAX_RATE_LIMIT_PER_S = 1000;

async function validateRuleFields(deps: Deps, input: Partial<RuleInput>): Promise<Partial<RuleInput>> {
  const out: Partial<RuleInput> = { ...input };
  if (input.name !== undefined) {
    out.name = input.name.trim();
    if (out.name.length < 1 || out.name.length > 100) throw invalidField("name", "must be 1 to 100 characters");
  }
  if (input.event !== undefined && !isEventName(input.event))
    throw invalidField("event", `must be one of: ${EVENT_NAMES.join(", ")}`);
  if (input.secret !== undefined && (input.secret.length < 16 || input.secret.length > 256)) {
    throw invalidField("secret", "must be 16 to 256 characters");
  }
  if (input.conditions !== undefined) {
    const extra = Object.keys(input.conditions).filter((key) => key !== "min_confidence");
    if (extra.length > 0) throw invalidField("conditions", `unknown key ${extra[0]}: only min_confidence is supported`);
    const value = input.conditions.min_confidence;
    if (value !== undefined && !(value >= 0 && value <= 1))
      throw invalidField("conditions.min_confidence", "must be between 0 and 1");
  }
  const rate = input.rate_limit_per_s;
  if (rate !== undefined && rate !== null && !(Number.isInteger(rate) && rate >= 1 && rate <= MAX_RATE_LIMIT_PER_S)) {
    throw invalidField("rate_limit_per_s", `must be a whole number from 1 to ${MAX_RATE_LIMIT_PER_S}`);
  }
  if (input.ordering !== undefined && !isRuleOrdering(input.ordering)) {
    throw invalidField("ordering", `must be one of: ${RULE_ORDERINGS.join(", ")}`);
  }
  if (input.url !== undefined) {
    if (input.url.length > 2048) throw invalidField("url", "must be at most 2048 characters");
    out.url = (
      await checkWebhookUrl(input.url, { allowPrivate: deps.config.allowPrivateWebhooks, resolve: deps.resolveHost })
    ).href;
  }
  return out;
}

const isRuleOrdering = (value: string): value is RuleOrdering => (RULE_ORDERINGS as readonly string[]).includes(value);

const duplicateRule = () => new AppError("rule_exists", 409, "This tenant already has a rule for that event and URL.");

async function findDuplicate(
  store: StoreQueries,
  tenantId: string,
  event: string,
  url: string,
  exceptId?: string,
): Promise<boolean> {
  const id = await store.webhookRules.findRuleIdByTarget(tenantId, event, url);
  return id !== null && id !== exceptId;
}

/**
 * Refuses a rule past the plan's cap (402 plan_limit). Every rule turns each matching event into
 * one more delivery, so an unbounded rule count is an unbounded share of the delivery pool.
 */
const assertRuleRoom = (store: StoreQueries, tenantId: string): Promise<void> =>
  assertPlanRoom(store, tenantId, {
    limit: "webhook_rules",
    noun: "webhook rules",
    max: (plan) => plan.webhookRules,
    count: () => store.webhookRules.countRules(tenantId),
  });

export async function createRule(deps: Deps, tenantId: string, input: RuleInput): Promise<RuleView> {
  const valid = (await validateRuleFields(deps, input)) as RuleInput;
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
    previousSecret: null,
    previousSecretUntil: null,
    rateLimitPerS: valid.rate_limit_per_s ?? null,
    ordering: (valid.ordering as RuleOrdering | undefined) ?? "none",
  };
  // Counted and inserted in one write transaction (after the URL check's DNS lookup, which is
  // real I/O and stays outside): two concurrent creates cannot both pass the cap.
  await deps.store.transaction(async (tx) => {
    await assertRuleRoom(tx, tenantId);
    if (await findDuplicate(tx, tenantId, valid.event, valid.url)) throw duplicateRule();
    await tx.webhookRules.insertRule(row);
  });
  return toRuleView(row);
}

/** The rule if it belongs to the tenant; another tenant's rule is "not found", never "forbidden". */
export async function getRuleRow(deps: Pick<Deps, "store">, tenantId: string, ruleId: string): Promise<RuleRow> {
  const row = await deps.store.webhookRules.findRule(tenantId, ruleId);
  if (!row) throw notFound("rule");
  return row;
}

export async function updateRule(
  deps: Deps,
  tenantId: string,
  ruleId: string,
  patch: Partial<RuleInput>,
): Promise<RuleView> {
  const current = await getRuleRow(deps, tenantId, ruleId);
  if (Object.keys(patch).length === 0) throw invalidField("(body)", "name at least one field to change");
  const valid = await validateRuleFields(deps, patch);
  const event = valid.event ?? current.event;
  const url = valid.url ?? current.url;
  if (
    (event !== current.event || url !== current.url) &&
    (await findDuplicate(deps.store, tenantId, event, url, ruleId))
  )
    throw duplicateRule();
  const changes: Partial<RuleRow> = { updatedAt: deps.clock.now() };
  if (valid.name !== undefined) changes.name = valid.name;
  if (valid.event !== undefined) changes.event = valid.event;
  if (valid.url !== undefined) changes.url = valid.url;
  // A secret set here replaces the old one at once (revoking a leaked secret); the overlap is
  // what rotate-secret is for.
  if (valid.secret !== undefined)
    Object.assign(changes, { secret: valid.secret, previousSecret: null, previousSecretUntil: null });
  if (valid.rate_limit_per_s !== undefined) changes.rateLimitPerS = valid.rate_limit_per_s;
  // Deliveries already queued keep their place: a waiting one is still released by the one ahead.
  if (valid.ordering !== undefined) changes.ordering = valid.ordering as RuleOrdering;
  if (valid.active !== undefined) changes.active = valid.active;
  if (valid.conditions !== undefined) changes.minConfidence = valid.conditions.min_confidence ?? null;
  await deps.store.webhookRules.updateRule(ruleId, changes);
  return toRuleView({ ...current, ...changes });
}

/** Deletes a rule. Its pending deliveries are cancelled by the scheduler (the rule is gone); the log stays. */
export async function deleteRule(deps: Deps, tenantId: string, ruleId: string): Promise<void> {
  await getRuleRow(deps, tenantId, ruleId);
  await deps.store.webhookRules.deleteRule(ruleId);
}

export async function listRules(
  deps: Deps,
  tenantId: string,
  options: { limit: number; cursor?: string },
): Promise<Page<RuleView>> {
  const rows = await deps.store.webhookRules.listRules(tenantId, options.cursor ?? null, options.limit + 1);
  return toPage(rows, options.limit, (row) => row.id, toRuleView);
}
