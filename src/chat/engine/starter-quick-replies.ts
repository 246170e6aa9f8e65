import type { BotConfig } from "./bot-config.ts";
import { isLang } from "./language.ts";
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

/**
 * What the widget shows before the first message, in the visitor's language (`lang`: the widget's,
 * "pt-BR" or "pt"): the tenant's greeting and starters when that is the config's language or one
 * the bot does not speak; else the engine's greeting in that language and the menu of FAQ
 * questions written in it. A tenant's own starter list is kept as it is, in every language.
 */
export function widgetWelcome(config: BotConfig, lang?: string): { greeting: string; quickReplies: string[] } {
  const visitor = lang?.trim().toLowerCase().slice(0, 2);
  if (!isLang(visitor) || visitor === config.language || !config.languages.includes(visitor)) {
    return { greeting: config.greeting, quickReplies: starterQuickReplies(config) };
  }
  const say = PHRASES[visitor];
  return {
    greeting: say.greeting(config.bot_name),
    quickReplies: config.starter_quick_replies ?? menuQuickReplies(config, say, visitor),
  };
}
