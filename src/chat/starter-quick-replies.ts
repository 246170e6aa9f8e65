import type { BotConfig } from "./bot-config.ts";
import { PHRASES } from "./phrases/index.ts";
import { menuQuickReplies } from "./replies.ts";

/**
 * The buttons the widget shows under its greeting, before the visitor has typed anything:
 * the tenant's own list when set, else the same menu the bot offers after a greeting (a few
 * FAQ questions from the sector template, booking, a person), so a new tenant gets useful
 * starters without configuring any.
 */
export function starterQuickReplies(config: BotConfig): string[] {
  return config.starter_quick_replies ?? menuQuickReplies(config, PHRASES[config.language]);
}
