import type { Deps } from "../deps.ts";
import type { BotConfig } from "../chat/engine/bot-config.ts";
import type { CaseExpectation } from "../db/schema-test-set.ts";
import type { EngineAction } from "../chat/engine/engine-types.ts";
import { createRuleEngine, initialConversationState, type ConversationState } from "../chat/engine/engine.ts";
import type { Lang } from "../chat/engine/language.ts";
import { replyWithAssistant } from "../assistant/reply-with-assistant.ts";
import type { Source } from "../assistant/citations.ts";
import type { TranscriptLine } from "../assistant/prompt.ts";
import type { AiSettings } from "../assistant/settings.ts";
import type { KnowledgeProposal } from "../knowledge/tenant-index.ts";
import { actionKinds, checkExpectations, type ActionKind, type Check } from "./checks.ts";

/**
 * A case replayed in a sandbox: the conversation lives in memory only. The rule engine is a
 * pure function of (config, state, message, time), and the assistant's turn writes nothing
 * (src/assistant/reply-with-assistant.ts); the write phase of a real turn (src/chat/handle-message.ts
 * commitTurn: session, messages, usage, actions and their events) is never run. So a run leaves
 * no session, message, lead, appointment, event, delivery or usage behind — and cannot book a
 * slot a real visitor then finds taken.
 */

export type EngineName = "model" | "rule_engine";

export interface SandboxCase {
  turns: readonly string[];
  language: Lang | null;
  expect: CaseExpectation;
}

export interface EngineAnswer {
  engine: EngineName;
  /** The answer to the last turn; null when the bot stays silent (a person took the conversation). */
  reply: string | null;
  sources: Source[];
  /** What the bot would have done: "none", or the first of `actions`. */
  action: ActionKind | "none";
  actions: ActionKind[];
  checks: Check[];
  passed: boolean;
  duration_ms: number;
  /** The model failed (timeout, provider error…): a visitor would have had the rule engine's answer. */
  error?: string;
}

interface Conversation {
  reply: string | null;
  sources: Source[];
  actions: EngineAction[];
  error?: string;
}

export interface SandboxContext {
  tenantId: string;
  config: BotConfig;
  nowMs: number;
  /** Booked appointment starts, read once for the run: a sandboxed booking is checked against them. */
  takenSlotStarts: readonly number[];
  /** A dry run's proposed knowledge, which the model's retrieval searches instead of the stored one. */
  knowledge?: KnowledgeProposal;
}

/** One case through one engine, with its verdicts and the time it took. */
export async function runCaseIn(
  deps: Deps,
  engine: EngineName,
  context: SandboxContext,
  settings: AiSettings | null,
  testCase: SandboxCase,
): Promise<EngineAnswer> {
  const startedAt = performance.now();
  const conversation =
    engine === "model" && settings
      ? await converseWithModel(deps, context, settings, testCase.turns)
      : converseWithRules(context, testCase.turns, testCase.language);
  const actions = actionKinds(conversation.actions);
  const checks = checkExpectations(testCase.expect, { ...conversation, actions });
  return {
    engine,
    reply: conversation.reply,
    sources: conversation.sources,
    action: actions[0] ?? "none",
    actions,
    checks,
    // A model failure fails the case even when its checks would pass on silence (not_contains).
    passed: conversation.error === undefined && checks.every((check) => check.passed),
    duration_ms: Math.round((performance.now() - startedAt) * 100) / 100,
    ...(conversation.error ? { error: conversation.error } : {}),
  };
}

const isHandoff = (action: EngineAction) => action.type === "handoff";

/** The rule engine turn by turn, its state carried in memory as a session would carry it. */
function converseWithRules(context: SandboxContext, turns: readonly string[], language: Lang | null): Conversation {
  const engine = createRuleEngine();
  let state: ConversationState = { ...initialConversationState(), lang: language };
  const taken = [...context.takenSlotStarts];
  const actions: EngineAction[] = [];
  let reply: string | null = null;
  for (const message of turns) {
    // After a hand-off a person has the session and the bot says nothing more.
    if (actions.some(isHandoff)) {
      reply = null;
      continue;
    }
    const output = engine.reply({
      config: context.config,
      state,
      message,
      nowMs: context.nowMs,
      takenSlotStarts: taken,
    });
    state = output.state;
    reply = output.reply.text;
    actions.push(...output.actions);
    for (const action of output.actions) if (action.type === "appointment_booked") taken.push(action.startMs);
  }
  return { reply, sources: [], actions };
}

/** The assistant turn by turn, the transcript carried in memory; nothing is written. */
async function converseWithModel(
  deps: Deps,
  context: SandboxContext,
  settings: AiSettings,
  turns: readonly string[],
): Promise<Conversation> {
  const transcript: TranscriptLine[] = [];
  const actions: EngineAction[] = [];
  let reply: string | null = null;
  let sources: Source[] = [];
  for (const message of turns) {
    if (actions.some(isHandoff)) {
      reply = null;
      sources = [];
      continue;
    }
    const result = await replyWithAssistant(deps, {
      tenantId: context.tenantId,
      sessionId: null,
      transcript,
      config: context.config,
      settings,
      message,
      nowMs: context.nowMs,
      takenSlotStarts: context.takenSlotStarts,
      knowledge: context.knowledge,
    });
    if (!result.ok)
      return {
        reply: null,
        sources: [],
        actions,
        error: `the model failed (${result.outcome}); visitors would get the rule engine's answer`,
      };
    reply = result.draft.text;
    sources = result.draft.sources;
    actions.push(...result.draft.actions);
    transcript.push({ role: "visitor", text: message }, { role: "bot", text: reply });
  }
  return { reply, sources, actions };
}
