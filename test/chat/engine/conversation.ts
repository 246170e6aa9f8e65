import { expect } from "bun:test";
import type { BotConfig } from "../../../src/chat/engine/bot-config.ts";
import {
  createRuleEngine,
  initialConversationState,
  type ConversationState,
  type EngineAction,
  type EngineOutput,
} from "../../../src/chat/engine/engine.ts";

/** Thursday 15 January 2026, 09:00 UTC (04:00 in New York): the fixed "now" of the chat tests. */
export const NOW_MS = Date.UTC(2026, 0, 15, 9, 0);
/**
 * The same Thursday at 15:00 UTC: office hours in New York (10:00), Chicago and London, where a
 * hand-off promises a person; at NOW_MS those teams are away and the hand-off takes a message.
 */
export const OFFICE_HOURS_MS = Date.UTC(2026, 0, 15, 15, 0);

/** The config with no opening hours at all: nothing is known of the team's hours, so a hand-off promises a person. */
export function withoutHours(config: BotConfig): BotConfig {
  const closed = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
  return { ...config, appointments: { ...config.appointments, business_hours: closed } };
}

export interface Conversation {
  outputs: EngineOutput[];
  actions: EngineAction[];
  state: ConversationState;
  /** The text of the last reply. */
  last: string;
}

/**
 * Plays `messages` through one rule engine session, carrying the state from reply to reply
 * (through JSON, as the caller's database would) so a state that does not survive storage
 * fails the test. Every turn is also answered without the booked slots
 * (`replyUnlessSlotsNeeded`, what the chat endpoint tries first): unless that says the slots are
 * needed, its answer must be the very same.
 */
export function converse(
  config: BotConfig,
  messages: readonly string[],
  options: { nowMs?: number; takenSlotStarts?: number[]; state?: ConversationState } = {},
): Conversation {
  const engine = createRuleEngine();
  let state = options.state ?? initialConversationState();
  const outputs: EngineOutput[] = [];
  for (const message of messages) {
    const nowMs = options.nowMs ?? NOW_MS;
    const output = engine.reply({ config, state, message, nowMs, takenSlotStarts: options.takenSlotStarts ?? [] });
    const withoutSlots = engine.replyUnlessSlotsNeeded?.({ config, state, message, nowMs });
    if (withoutSlots) expect(withoutSlots).toEqual(output);
    outputs.push(output);
    state = JSON.parse(JSON.stringify(output.state)) as ConversationState;
  }
  return {
    outputs,
    actions: outputs.flatMap((output) => output.actions),
    state,
    last: outputs.at(-1)?.reply.text ?? "",
  };
}

export function actionsOfType<T extends EngineAction["type"]>(
  actions: readonly EngineAction[],
  type: T,
): Extract<EngineAction, { type: T }>[] {
  return actions.filter((action): action is Extract<EngineAction, { type: T }> => action.type === type);
}
