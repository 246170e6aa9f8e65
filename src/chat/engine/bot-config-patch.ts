import { invalidField } from "../../lib/validate.ts";
import { mergeAiConfig } from "./ai-config.ts";
import {
  type BotConfig,
  type BusinessHours,
  type FaqEntry,
  MAX_FAQ_ENTRIES,
  MAX_RETENTION_DAYS,
  MAX_STARTER_QUICK_REPLIES,
  type RetentionSettings,
  SUPPORTED_LANGUAGES,
  type VisitorLimits,
  WEEKDAYS,
} from "./bot-config.ts";
import {
  clockToMinutes,
  isPlainObject,
  type JsonObject,
  rejectUnknownKeys,
  requireBoolean,
  requireClockTime,
  requireCountry,
  requireInteger,
  requireKeywordList,
  requireNumber,
  requireObject,
  requireOrigin,
  requireSlug,
  requireString,
  requireTimezone,
} from "./config-fields.ts";
import { isLang, type Lang } from "./language.ts";

// The validation of PATCH /chatbot/config, field by field; the config's shape is in bot-config.ts.

const TOP_LEVEL_KEYS = [
  "bot_name",
  "greeting",
  "sector",
  "language",
  "languages",
  "faq",
  "lead",
  "appointments",
  "handoff",
  "allowed_origins",
  "ai",
  "retention",
  "limits",
  "starter_quick_replies",
] as const;
const LIMIT_KEYS = ["anonymous_daily_messages"] as const;
const LEAD_KEYS = ["enabled", "default_country", "intent_keywords", "require_phone"] as const;
const APPOINTMENT_KEYS = [
  "enabled",
  "timezone",
  "business_hours",
  "slot_minutes",
  "lead_time_minutes",
  "max_days_ahead",
  "intent_keywords",
] as const;
const HANDOFF_KEYS = ["keywords", "low_confidence_threshold", "max_low_confidence_turns"] as const;
const RETENTION_KEYS = ["chat_days", "analytics_days"] as const;
const FAQ_KEYS = ["id", "question", "answer", "keywords", "language"] as const;
const FAQ_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Merges a partial PATCH document into `current` and returns the new, fully valid config.
 * Objects merge key by key (so `{"lead":{"enabled":false}}` keeps the country); arrays and
 * `business_hours` days replace what they name. Throws a 422 naming the first bad field.
 * `current` is never mutated.
 */
export function validateBotConfigPatch(
  patch: unknown,
  current: BotConfig,
  sealApiKey?: (plain: string) => string,
): BotConfig {
  const body = requireObject(patch, "body");
  rejectUnknownKeys(body, TOP_LEVEL_KEYS, "");
  const next = structuredClone(current);

  if ("bot_name" in body) next.bot_name = requireString(body.bot_name, "bot_name", 1, 60);
  if ("greeting" in body) next.greeting = requireString(body.greeting, "greeting", 1, 500);
  if ("sector" in body) next.sector = requireSlug(body.sector, "sector");
  if ("language" in body) next.language = requireLanguage(body.language, "language");
  if ("languages" in body) next.languages = requireLanguageList(body.languages);
  if ("faq" in body) next.faq = requireFaqList(body.faq);
  if ("lead" in body) mergeLead(requireObject(body.lead, "lead"), next);
  if ("appointments" in body) mergeAppointments(requireObject(body.appointments, "appointments"), next);
  if ("handoff" in body) mergeHandoff(requireObject(body.handoff, "handoff"), next);
  if ("allowed_origins" in body) next.allowed_origins = requireOriginList(body.allowed_origins);
  if ("ai" in body) next.ai = mergeAiConfig(requireObject(body.ai, "ai"), current.ai, sealApiKey);
  if ("retention" in body)
    next.retention = mergeRetention(requireObject(body.retention, "retention"), current.retention);
  if ("limits" in body) next.limits = mergeLimits(requireObject(body.limits, "limits"), current.limits);
  if ("starter_quick_replies" in body)
    next.starter_quick_replies = requireKeywordList(
      body.starter_quick_replies,
      "starter_quick_replies",
      MAX_STARTER_QUICK_REPLIES,
    );
  return next;
}

function requireLanguage(value: unknown, field: string): Lang {
  if (!isLang(value)) throw invalidField(field, `must be one of: ${SUPPORTED_LANGUAGES.join(", ")}`);
  return value;
}

function requireLanguageList(value: unknown): Lang[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalidField("languages", `must be a non-empty array of: ${SUPPORTED_LANGUAGES.join(", ")}`);
  return [...new Set(value.map((item, index) => requireLanguage(item, `languages[${index}]`)))];
}

function requireFaqList(value: unknown): FaqEntry[] {
  if (!Array.isArray(value)) throw invalidField("faq", "must be an array");
  if (value.length > MAX_FAQ_ENTRIES) throw invalidField("faq", `must have at most ${MAX_FAQ_ENTRIES} entries`);
  const ids = new Set<string>();
  return value.map((item, index) => {
    const field = `faq[${index}]`;
    const entry = requireObject(item, field);
    rejectUnknownKeys(entry, FAQ_KEYS, field);
    if (typeof entry.id !== "string" || !FAQ_ID_PATTERN.test(entry.id)) {
      throw invalidField(`${field}.id`, "must be 1 to 64 letters, digits, - or _");
    }
    if (ids.has(entry.id)) throw invalidField(`${field}.id`, "is used by another entry");
    ids.add(entry.id);
    const out: FaqEntry = {
      id: entry.id,
      question: requireString(entry.question, `${field}.question`, 1, 300),
      answer: requireString(entry.answer, `${field}.answer`, 1, 2000),
    };
    if (entry.keywords !== undefined) out.keywords = requireKeywordList(entry.keywords, `${field}.keywords`, 20);
    if (entry.language !== undefined) out.language = requireLanguage(entry.language, `${field}.language`);
    return out;
  });
}

function mergeLead(patch: JsonObject, next: BotConfig): void {
  rejectUnknownKeys(patch, LEAD_KEYS, "lead");
  if ("enabled" in patch) next.lead.enabled = requireBoolean(patch.enabled, "lead.enabled");
  if ("default_country" in patch)
    next.lead.default_country = requireCountry(patch.default_country, "lead.default_country");
  if ("intent_keywords" in patch)
    next.lead.intent_keywords = requireKeywordList(patch.intent_keywords, "lead.intent_keywords", 50);
  if ("require_phone" in patch) next.lead.require_phone = requireBoolean(patch.require_phone, "lead.require_phone");
}

function mergeAppointments(patch: JsonObject, next: BotConfig): void {
  rejectUnknownKeys(patch, APPOINTMENT_KEYS, "appointments");
  const target = next.appointments;
  if ("enabled" in patch) target.enabled = requireBoolean(patch.enabled, "appointments.enabled");
  if ("timezone" in patch) target.timezone = requireTimezone(patch.timezone, "appointments.timezone");
  if ("slot_minutes" in patch)
    target.slot_minutes = requireInteger(patch.slot_minutes, "appointments.slot_minutes", 5, 240);
  // Up to a week of notice: beyond that the business should close the calendar instead.
  if ("lead_time_minutes" in patch)
    target.lead_time_minutes = requireInteger(patch.lead_time_minutes, "appointments.lead_time_minutes", 0, 10_080);
  if ("max_days_ahead" in patch)
    target.max_days_ahead = requireInteger(patch.max_days_ahead, "appointments.max_days_ahead", 1, 365);
  if ("intent_keywords" in patch)
    target.intent_keywords = requireKeywordList(patch.intent_keywords, "appointments.intent_keywords", 50);
  if ("business_hours" in patch)
    mergeBusinessHours(requireObject(patch.business_hours, "appointments.business_hours"), target.business_hours);
}

function mergeBusinessHours(patch: JsonObject, target: BusinessHours): void {
  const prefix = "appointments.business_hours";
  rejectUnknownKeys(patch, WEEKDAYS, prefix);
  for (const day of WEEKDAYS) {
    if (!(day in patch)) continue;
    const value = patch[day];
    if (value === null) {
      target[day] = null;
      continue;
    }
    if (!isPlainObject(value)) throw invalidField(`${prefix}.${day}`, "must be null (closed) or {open, close}");
    rejectUnknownKeys(value, ["open", "close"], `${prefix}.${day}`);
    const open = requireClockTime(value.open, `${prefix}.${day}.open`);
    const close = requireClockTime(value.close, `${prefix}.${day}.close`);
    if (clockToMinutes(open) >= clockToMinutes(close))
      throw invalidField(`${prefix}.${day}.close`, "must be later than open");
    target[day] = { open, close };
  }
}

function mergeHandoff(patch: JsonObject, next: BotConfig): void {
  rejectUnknownKeys(patch, HANDOFF_KEYS, "handoff");
  if ("keywords" in patch) next.handoff.keywords = requireKeywordList(patch.keywords, "handoff.keywords", 50);
  if ("low_confidence_threshold" in patch) {
    next.handoff.low_confidence_threshold = requireNumber(
      patch.low_confidence_threshold,
      "handoff.low_confidence_threshold",
      0,
      1,
    );
  }
  if ("max_low_confidence_turns" in patch) {
    next.handoff.max_low_confidence_turns = requireInteger(
      patch.max_low_confidence_turns,
      "handoff.max_low_confidence_turns",
      1,
      10,
    );
  }
}

function mergeRetention(patch: JsonObject, current: RetentionSettings | undefined): RetentionSettings {
  rejectUnknownKeys(patch, RETENTION_KEYS, "retention");
  const next: RetentionSettings = {
    chat_days: current?.chat_days ?? null,
    analytics_days: current?.analytics_days ?? null,
  };
  for (const key of RETENTION_KEYS) {
    if (key in patch)
      next[key] = patch[key] === null ? null : requireInteger(patch[key], `retention.${key}`, 1, MAX_RETENTION_DAYS);
  }
  return next;
}

function mergeLimits(patch: JsonObject, current: VisitorLimits | undefined): VisitorLimits {
  rejectUnknownKeys(patch, LIMIT_KEYS, "limits");
  const next: VisitorLimits = { anonymous_daily_messages: current?.anonymous_daily_messages ?? null };
  if ("anonymous_daily_messages" in patch) {
    const cap = patch.anonymous_daily_messages;
    next.anonymous_daily_messages =
      cap === null ? null : requireInteger(cap, "limits.anonymous_daily_messages", 1, 10_000_000);
  }
  return next;
}

function requireOriginList(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalidField("allowed_origins", "must be an array of origins");
  if (value.length > 50) throw invalidField("allowed_origins", "must have at most 50 entries");
  const origins = value.map((item, index) => requireOrigin(item, `allowed_origins[${index}]`));
  return [...new Set(origins)];
}
