import { LANGUAGES, type Lang } from "./language.ts";
import type { AiConfig } from "./ai-config.ts";

/**
 * The per-tenant bot configuration: the JSON document of GET/PATCH /chatbot/config, hence the
 * snake_case keys. Everything the rule engine knows about a business comes from here.
 */

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Wall-clock "HH:MM" in the tenant's time zone; `close` is exclusive (the last slot ends by it). */
export interface OpeningHours {
  open: string;
  close: string;
}

export type BusinessHours = Record<Weekday, OpeningHours | null>;

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
  keywords?: string[];
  /** The entry's language; absent = the config's `language`. Visitors get entries in theirs first. */
  language?: Lang;
}

export interface BotConfig {
  bot_name: string;
  greeting: string;
  sector: string;
  /** The language of the greeting and of FAQ entries that name none. */
  language: Lang;
  /** The languages the bot speaks with visitors, detected per message (default ["en"]). */
  languages: Lang[];
  faq: FaqEntry[];
  /**
   * `require_phone` (absent = true): a lead needs a phone number. When false, a visitor who
   * would rather not give one ("just email me") is taken with name and e-mail only (phone "").
   */
  lead: { enabled: boolean; default_country: string; intent_keywords: string[]; require_phone?: boolean };
  appointments: {
    enabled: boolean;
    timezone: string;
    business_hours: BusinessHours;
    slot_minutes: number;
    lead_time_minutes: number;
    max_days_ahead: number;
    /** Sector words that mean "I want to come in" (viewing, MOT, haircut), on top of the built-in ones. */
    intent_keywords: string[];
  };
  handoff: { keywords: string[]; low_confidence_threshold: number; max_low_confidence_turns: number };
  allowed_origins: string[];
  /** The tenant's model provider override (src/chat/engine/ai-config.ts); absent = the defaults. */
  ai?: AiConfig;
  /** Days chat sessions (with their transcripts) and widget analytics are kept; absent or null = keep. */
  retention?: RetentionSettings;
  /** Caps on anonymous (widget) traffic; absent or null = only the server-wide per-address share. */
  limits?: VisitorLimits;
  /** Buttons under the widget's greeting; absent = the menu (first FAQ questions, booking, a person). */
  starter_quick_replies?: string[];
}

export interface VisitorLimits {
  /** Widget visitor messages accepted per UTC day, all visitors together; null = no cap. */
  anonymous_daily_messages: number | null;
}

export interface RetentionSettings {
  chat_days: number | null;
  analytics_days: number | null;
}

/** Ten years: a longer retention is "keep" (null) in all but name. */
export const MAX_RETENTION_DAYS = 3650;

export const SUPPORTED_LANGUAGES = LANGUAGES;
export const MAX_FAQ_ENTRIES = 200;
export const MAX_STARTER_QUICK_REPLIES = 6;
