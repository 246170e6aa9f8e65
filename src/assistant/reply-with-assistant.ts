import type { Deps } from "../deps.ts";
import { proposeSlots } from "../chat/engine/appointment-slots.ts";
import type { EngineAction } from "../chat/engine/engine-types.ts";
import type { AiUsage, AssistantDraft, AssistantTurn } from "../chat/turn-assistant.ts";
import { searchKnowledge, type KnowledgeHit, type KnowledgeQuery } from "../knowledge/search.ts";
import type { KnowledgeProposal } from "../knowledge/tenant-index.ts";
import { citedSources, createCitationFilter, type Source } from "./citations.ts";
import { rewriteSearchQuery } from "./rewrite-query.ts";
import { createCircuitBreaker, type CircuitBreaker } from "./circuit-breaker.ts";
import { assistantMetricsFor, type CallOutcome } from "./metrics.ts";
import { createChatCompletion, ProviderError, type ChatMessage } from "./openai-client.ts";
import { buildMessages, type TranscriptLine } from "./prompt.ts";
import { embedderFor, type AiSettings } from "./settings.ts";
import { isToolName, runTool, toolDefinitions, type ToolContext } from "./tools.ts";

/**
 * One assistant turn: retrieve, prompt, call the model, run its tool calls (read-only checks),
 * call it again with the results, up to MAX_ROUNDS. Nothing is written here — the caller
 * persists the draft in one transaction after this returns, so the model call never holds a
 * database lock. Any provider failure yields `{ok: false}` and the rule engine answers.
 */

export const MAX_ROUNDS = 4;
export const KNOWLEDGE_LIMIT = 5;
const TRANSCRIPT_LIMIT = 12;
const FREE_SLOTS_IN_PROMPT = 6;
/** How sure we are of a plain grounded answer: the model was told to answer only from the chunks. */
export const ANSWER_CONFIDENCE = 0.8;

export type { Source };

export type { AiUsage, AssistantDraft };

export type AssistantResult =
  | { ok: true; draft: AssistantDraft; usage: AiUsage }
  | { ok: false; outcome: Exclude<CallOutcome, "ok">; usage: AiUsage };

/** A chat turn's request (the port chat declares) with the resolved provider settings. */
export interface AssistantTurnInput extends AssistantTurn {
  settings: AiSettings;
  /** The conversation so far when there is no session to read it from (a sandboxed test run). */
  transcript?: readonly TranscriptLine[];
  /** A dry run's proposed knowledge (FAQ, documents added or deleted), searched instead of the stored one. */
  knowledge?: KnowledgeProposal;
}

// One breaker per store: each test app (and the server) has its own.
const breakers = new WeakMap<Deps["store"], CircuitBreaker>();

export function breakerFor(deps: Deps): CircuitBreaker {
  let breaker = breakers.get(deps.store);
  if (!breaker) {
    breaker = createCircuitBreaker(deps.clock);
    breakers.set(deps.store, breaker);
  }
  return breaker;
}

class UnknownToolError extends Error {}

export async function replyWithAssistant(deps: Deps, input: AssistantTurnInput): Promise<AssistantResult> {
  const { settings, config } = input;
  const metrics = assistantMetricsFor(deps.store);
  const usage: AiUsage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const breakerKey = `${settings.endpoint.baseUrl} ${settings.model}`;
  const breaker = breakerFor(deps);
  if (!breaker.allow(breakerKey)) {
    metrics.record("circuit_open", null);
    return { ok: false, outcome: "circuit_open", usage };
  }

  const transcript: readonly TranscriptLine[] =
    input.transcript?.slice(-TRANSCRIPT_LIMIT) ??
    (input.sessionId ? await deps.store.chatSessions.listRecentMessages(input.sessionId, TRANSCRIPT_LIMIT) : []);
  const startedAt = deps.clock.now();
  try {
    const hits = await retrieve(deps, input, transcript, usage);
    const freeSlots = config.appointments.enabled
      ? proposeSlots(input.nowMs, config, input.nowMs, input.takenSlotStarts, FREE_SLOTS_IN_PROMPT)
      : [];
    const messages = buildMessages({
      config,
      instructions: settings.instructions,
      hits,
      nowMs: input.nowMs,
      freeSlots,
      transcript,
      message: input.message,
    });
    const visitorText = [
      ...transcript.filter((line) => line.role === "visitor").map((line) => line.text),
      input.message,
    ].join("\n");
    const context: ToolContext = {
      config,
      nowMs: input.nowMs,
      takenSlotStarts: [...input.takenSlotStarts],
      visitorText,
      done: new Set(),
    };
    const { cited, ...draft } = await runToolLoop(messages, input, context, usage);
    metrics.record("ok", deps.clock.now() - startedAt);
    metrics.addTokens(usage.promptTokens, usage.completionTokens);
    breaker.recordSuccess(breakerKey);
    return { ok: true, usage, draft: { ...draft, sources: citedSources(hits, cited) } };
  } catch (error) {
    const outcome =
      error instanceof ProviderError ? error.kind : error instanceof UnknownToolError ? "unknown_tool" : null;
    if (outcome === null) {
      // A bug, not the provider: still report, so a half-open breaker is not left waiting on this trial forever.
      breaker.recordFailure(breakerKey);
      throw error;
    }
    metrics.record(outcome, deps.clock.now() - startedAt);
    metrics.addTokens(usage.promptTokens, usage.completionTokens);
    breaker.recordFailure(breakerKey);
    deps.log.error({ msg: "assistant_fallback", tenant_id: input.tenantId, outcome, error: (error as Error).message });
    return { ok: false, outcome, usage };
  }
}

/**
 * The search runs on the model's standalone rewrite of the message (and its English
 * translation) beside the message itself; without a rewrite, on the message with the previous
 * visitor question carried at lower weight, so "and on Saturdays?" still finds the hours.
 */
async function retrieve(
  deps: Deps,
  input: AssistantTurnInput,
  transcript: readonly TranscriptLine[],
  usage: AiUsage,
): Promise<KnowledgeHit[]> {
  const rewritten = await rewriteSearchQuery(input.settings, transcript, input.message, usage);
  const previous = transcript.filter((line) => line.role === "visitor").at(-1)?.text ?? "";
  const query: KnowledgeQuery = rewritten
    ? { variants: [...rewritten, input.message] }
    : { variants: [input.message], context: previous };
  const embedder = embedderFor(input.settings);
  try {
    return await searchKnowledge(deps, input.tenantId, query, {
      limit: KNOWLEDGE_LIMIT,
      embedder,
      proposal: input.knowledge,
    });
  } catch (error) {
    // An embedding failure must not cost the answer: BM25 alone still ranks the chunks.
    if (!embedder || !(error instanceof ProviderError)) throw error;
    return searchKnowledge(deps, input.tenantId, query, {
      limit: KNOWLEDGE_LIMIT,
      embedder: null,
      proposal: input.knowledge,
    });
  }
}

async function runToolLoop(
  messages: ChatMessage[],
  input: AssistantTurnInput,
  context: ToolContext,
  usage: AiUsage,
): Promise<Omit<AssistantDraft, "sources"> & { cited: ReadonlySet<number> }> {
  const { settings } = input;
  const tools = toolDefinitions(input.config);
  const actions: EngineAction[] = [];
  let text = "";
  // Text of several rounds ("Let me check…" then "Booked!") is one reply; the separator is streamed too, so deltas add up to it.
  const emit = (piece: string) => {
    if (text.length > 0 && roundStart && !/\s$/.test(text)) {
      text += "\n\n";
      input.onDelta?.("\n\n");
    }
    roundStart = false;
    text += piece;
    input.onDelta?.(piece);
  };
  let roundStart = false;
  const citations = createCitationFilter(emit);

  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    roundStart = true;
    const completion = await createChatCompletion(
      settings.endpoint,
      {
        model: settings.model,
        messages,
        tools,
        ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
        ...(settings.maxReplyTokens === null ? {} : { max_tokens: settings.maxReplyTokens }),
      },
      input.onDelta ? (piece) => citations.push(piece) : undefined,
    );
    usage.calls += 1;
    usage.promptTokens += completion.usage.promptTokens;
    usage.completionTokens += completion.usage.completionTokens;
    if (!input.onDelta && completion.text) citations.push(completion.text);
    citations.flush();
    if (completion.toolCalls.length === 0) {
      if (!text.trim()) throw new ProviderError("malformed", "the model answered with no text");
      const confidence =
        actions.length > 0 ? Math.max(...actions.map((action) => action.confidence)) : ANSWER_CONFIDENCE;
      return { text: text.trim(), actions, confidence, cited: citations.cited };
    }
    messages.push({ role: "assistant", content: completion.text || null, tool_calls: completion.toolCalls });
    for (const call of completion.toolCalls) {
      const name = call.function.name;
      // A tool we never offered: the model is confused (or injected); the rule engine takes this turn.
      if (!isToolName(name) || !tools.some((tool) => tool.function.name === name))
        throw new UnknownToolError(`the model called an unknown tool ${JSON.stringify(name.slice(0, 60))}`);
      const outcome = runTool(call, name, context);
      if (outcome.action) actions.push(outcome.action);
      messages.push({ role: "tool", tool_call_id: call.id, content: outcome.result });
    }
  }
  throw new ProviderError("malformed", `the model was still calling tools after ${MAX_ROUNDS} rounds`);
}
