import {
  createRuleEngine,
  initialConversationState,
  type ConversationState,
} from "../../../../src/chat/engine/engine.ts";
import { configForSector } from "../../../../src/chat/engine/sector-templates.ts";
import type { CorpusConversation, CorpusTurn } from "./types.ts";

/** Thursday 15 January 2026, 09:00 UTC: the corpus's fixed "now" (as in the other chat tests). */
export const CORPUS_NOW_MS = Date.UTC(2026, 0, 15, 9, 0);

const CLOCK_TIME = /\b\d{1,2}:\d\d [AP]M\b/;
const ZONE_NAMED = /\((?:[A-Z][\w ]+ time|UTC)\)/;

export interface TurnResult {
  turn: CorpusTurn;
  reply: string;
  problems: string[];
}

function describe(pattern: string | RegExp): string {
  return typeof pattern === "string" ? JSON.stringify(pattern) : String(pattern);
}

function matches(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
}

/** Plays one conversation through the rule engine (state through JSON, as stored) and checks every turn. */
export function runConversation(conversation: CorpusConversation): TurnResult[] {
  const engine = createRuleEngine();
  const template = configForSector(conversation.sector);
  const config = conversation.languages ? { ...template, languages: conversation.languages } : template;
  let state: ConversationState = initialConversationState();
  return conversation.turns.map((turn) => {
    const output = engine.reply({
      config,
      state,
      message: turn.say,
      nowMs: conversation.at ?? CORPUS_NOW_MS,
      takenSlotStarts: [],
    });
    // What the chat endpoint tries first: unless it says the booked slots are needed, the same answer.
    const withoutSlots = engine.replyUnlessSlotsNeeded?.({
      config,
      state,
      message: turn.say,
      nowMs: conversation.at ?? CORPUS_NOW_MS,
    });
    state = JSON.parse(JSON.stringify(output.state)) as ConversationState;
    const text = output.reply.text;
    const problems: string[] = [];
    if (withoutSlots && !Bun.deepEquals(withoutSlots, output))
      problems.push("answered differently without the booked slots");
    for (const pattern of turn.has ?? []) if (!matches(text, pattern)) problems.push(`missing ${describe(pattern)}`);
    for (const pattern of turn.lacks ?? [])
      if (matches(text, pattern)) problems.push(`should not say ${describe(pattern)}`);
    if (turn.actions) {
      const types = output.actions.map((action) => action.type);
      if (JSON.stringify(types) !== JSON.stringify(turn.actions))
        problems.push(`actions ${JSON.stringify(types)}, expected ${JSON.stringify(turn.actions)}`);
    }
    // Whatever the turn checks: a time of day shown to the visitor always says whose time it is.
    if (CLOCK_TIME.test(text) && !ZONE_NAMED.test(text)) problems.push("a time is shown without its time zone");
    if (turn.quick && !(output.reply.quick_replies ?? []).includes(turn.quick))
      problems.push(`quick reply ${JSON.stringify(turn.quick)} not offered`);
    return { turn, reply: text, problems };
  });
}

/** "turn N «…»: missing …" lines, empty when the conversation passed. */
export function conversationProblems(conversation: CorpusConversation): string[] {
  return runConversation(conversation).flatMap((result, index) =>
    result.problems.map((problem) => `turn ${index + 1} «${result.turn.say}»: ${problem} — got «${result.reply}»`),
  );
}
