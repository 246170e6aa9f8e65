import type { BotConfig } from "./bot-config.ts";
import type { ConversationState } from "./conversation-state.ts";

/**
 * The contract between the chat endpoint and whatever writes the replies. The rule engine is
 * one implementation; an LLM-backed engine can be another, as long as it stays a function of
 * its input (the caller owns storage, events and the clock).
 */

export interface EngineInput {
  config: BotConfig;
  /** The state returned with the previous reply of this session, or initialConversationState(). */
  state: ConversationState;
  message: string;
  /** The current time, epoch ms. The engine never reads a clock of its own. */
  nowMs: number;
  /** Starts (epoch ms) of the tenant's booked appointments, for the availability check. */
  takenSlotStarts: readonly number[];
}

export interface EngineReply {
  text: string;
  quick_replies?: string[];
}

export type EngineAction =
  | { type: "lead_captured"; name: string; phone: string; email: string; interest: string; confidence: number }
  | {
      type: "appointment_booked";
      startMs: number;
      endMs: number;
      name?: string;
      phone?: string;
      email?: string;
      confidence: number;
    }
  /** Contact details corrected after the session's lead was captured: the lead row is updated (no webhook event). */
  | {
      type: "lead_updated";
      name: string;
      phone: string;
      email: string;
      fields: Array<"name" | "phone" | "email">;
      confidence: number;
    }
  | {
      type: "handoff";
      reason: "keyword" | "low_confidence" | "assistant" | "urgent" | "complaint";
      confidence: number;
    };

export interface EngineOutput {
  reply: EngineReply;
  /** How sure the engine is that this reply fits the message, in [0, 1]. */
  confidence: number;
  /** Store this and pass it back with the next message of the session. */
  state: ConversationState;
  /** Things the caller must persist and announce (lead.created, appointment.created, handoff.requested). */
  actions: EngineAction[];
  /** The engine could not answer (its fallback, "I don't know", a hand-off for want of an answer): the owner sees it among the unanswered questions. */
  unanswered?: boolean;
}

export interface ReplyEngine {
  reply(input: EngineInput): EngineOutput;
  /**
   * Optional: the reply without the booked slots when the turn never looks at them (most turns:
   * only a booking step does), else null — then call `reply` with them. Spares the caller a
   * query per message; the answer is the one `reply` gives.
   */
  replyUnlessSlotsNeeded?(input: Omit<EngineInput, "takenSlotStarts">): EngineOutput | null;
}
