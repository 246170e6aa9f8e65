import type { TurnAssistant } from "../chat/turn-assistant.ts";
import { replyWithAssistant } from "./reply-with-assistant.ts";
import { resolveAiSettings } from "./settings.ts";

/** The model assistant a chat turn uses: the tenant's provider (or the server's), null without one. */
export const modelAssistant: TurnAssistant = {
  drafterFor(deps, config) {
    const settings = resolveAiSettings(deps, config);
    return settings === null ? null : (turn) => replyWithAssistant(deps, { ...turn, settings });
  },
};
