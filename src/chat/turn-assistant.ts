import type { Deps } from "../deps.ts";
import type { BotConfig } from "./engine/bot-config.ts";
import type { EngineAction } from "./engine/engine-types.ts";

/**
 * What a chat turn asks of a model assistant, declared here so chat depends on no assistant
 * code: src/assistant/turn-assistant.ts implements it and the deps carry it (Deps.assistant).
 */
export interface TurnAssistant {
  /** A drafter for this tenant's config, or null when it has no model provider: the rule engine answers. */
  drafterFor(deps: Deps, config: BotConfig): TurnDrafter | null;
}

/** The read phase of a turn with a model: nothing is written, the caller persists the draft. */
export type TurnDrafter = (turn: AssistantTurn) => Promise<AssistantResult>;

export interface AssistantTurn {
  tenantId: string;
  sessionId: string | null;
  config: BotConfig;
  message: string;
  nowMs: number;
  takenSlotStarts: readonly number[];
  /** Receives the model's text as it streams. */
  onDelta?: (text: string) => void;
}

/** A knowledge document a reply cites. */
export interface Source {
  document_id: string;
  title: string;
  url?: string;
}

export interface AiUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface AssistantDraft {
  text: string;
  actions: EngineAction[];
  sources: Source[];
  confidence: number;
}

/** Not ok: the model failed or was not called, and the rule engine answers; the usage is counted either way. */
export type AssistantResult = { ok: true; draft: AssistantDraft; usage: AiUsage } | { ok: false; usage: AiUsage };
