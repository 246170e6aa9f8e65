import type { Deps } from "../deps.ts";
import type { ChatMessageRow, Transaction } from "../db/store.ts";
import { countAiUsage, countMessage } from "../billing/usage.ts";
import { AppError } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { readLookupVersion, StaleLookupError } from "../tenants/lookup-cache.ts";
import { enqueueEvent } from "../webhooks/emit-event.ts";
import { getBotConfig } from "./bot-settings.ts";
import type { BotConfig } from "./engine/bot-config.ts";
import { restoreConversationState } from "./engine/conversation-state.ts";
import { MESSAGE_MAX_LENGTH } from "./engine/turn.ts";
import type { Lang } from "./engine/language.ts";
import { applyAction } from "./apply-action.ts";
import { assistantCouldNotAnswer, recordUnanswered } from "./record-unanswered.ts";
import { createRuleEngine, type EngineAction, type ReplyEngine } from "./engine/engine.ts";
import { findOrStartVisitorSession, foundSession, messageRow, startSession, type SessionRow } from "./sessions.ts";
import { recordTurnLiveEvents } from "./front-desk-events.ts";
import type { AssistantResult, Source } from "./turn-assistant.ts";
import { draftWithAssistant, recheckBookings, takenSlotStarts, type TurnOrigin } from "./assistant-turn.ts";

export interface HandleMessageInput extends TurnOrigin {
  /** Its bot config when the caller has it already (requireTenantWithConfig); else read here. */
  config?: BotConfig;
  text: string;
  /** Runs first inside the write transaction (WhatsApp's dedupe mark); throwing rolls the message back. */
  withinWrite?: (tx: Transaction) => Promise<void>;
  /**
   * Set when `tenant` and `config` came from the lookup caches without a read of the lookup
   * version (peekTenantWithConfig): the version they hold for. The turn compares it with the
   * store's first thing inside its write transaction — on SQLite a read without a lock there,
   * against two `fcntl` calls before it — or, when the assistant answers, before its model
   * call; it throws StaleLookupError, having written nothing, when it moved, and the caller
   * then runs the turn again with exact lookups.
   */
  lookupVersion?: string;
}

export interface HandleMessageOptions {
  engine?: ReplyEngine;
  /** Receives the model's text as it streams; the rule engine never calls it. */
  onDelta?: (text: string) => void;
}

export interface MessageResult {
  session_id: string;
  message_id: string;
  /** null while a human operator has the session: the bot stays silent. */
  reply: { message_id: string; text: string; quick_replies?: string[]; sources?: Source[] } | null;
  status: SessionRow["status"];
}

let defaultEngine: ReplyEngine | null = null;

/**
 * One visitor message. Without a model provider (the default) the rule engine answers inside
 * one write transaction, as it always did. With one, the turn has two phases so the model call
 * never holds the database's write lock: first reads (session, config, knowledge, free slots)
 * and the model call with its read-only tool checks; then ONE write transaction re-checks the
 * session and the booked slot and persists the visitor message, the reply, every action and
 * its event, and the AI usage. Any model failure makes the rule engine answer in that same
 * transaction: the visitor never sees a provider error.
 */
export async function handleMessage(
  deps: Deps,
  input: HandleMessageInput,
  options: HandleMessageOptions = {},
): Promise<MessageResult> {
  const text = input.text.trim();
  if (text.length < 1 || text.length > MESSAGE_MAX_LENGTH) {
    throw new AppError("validation_failed", 422, `message: must be 1 to ${MESSAGE_MAX_LENGTH} characters`, [
      { field: "message", message: `must be 1 to ${MESSAGE_MAX_LENGTH} characters` },
    ]);
  }
  const config = input.config ?? (await getBotConfig(deps, input.tenant.id));
  const drafter = deps.assistant.drafterFor(deps, config);
  const engine = options.engine ?? (defaultEngine ??= createRuleEngine());
  if (drafter === null) return commitTurn(deps, input, text, config, null, engine);
  // A model call is not made on lookups that may be stale: their version is checked now, once,
  // which makes them as exact as a fresh read; the write does not check it again (a change
  // during the call would otherwise pay for the model call twice).
  if (input.lookupVersion !== undefined && (await readLookupVersion(deps.store)) !== input.lookupVersion)
    throw new StaleLookupError();
  const checked = { ...input, lookupVersion: undefined };
  return commitTurn(
    deps,
    checked,
    text,
    config,
    await draftWithAssistant(deps, checked, text, config, drafter, options.onDelta),
    engine,
  );
}

/**
 * The write phase: one store transaction. Nothing in it waits for anything but its own
 * statements (the model call is over), so on SQLite it holds the write lock for microseconds.
 */
function commitTurn(
  deps: Deps,
  input: HandleMessageInput,
  text: string,
  config: BotConfig,
  assistant: AssistantResult | null,
  engine: ReplyEngine,
): Promise<MessageResult> {
  const tenant = input.tenant;
  return deps.store.transaction(async (tx) => {
    const now = deps.clock.now();
    // Counted first (a 402 costs nothing more), the lookup version and the session read in the
    // same operation; a throw below takes the count back with the rest of the turn.
    const counted = await countMessage(deps, tx, tenant.id, tenant.plan, now, input.sessionId ?? null);
    if (input.lookupVersion !== undefined && counted.lookupVersion !== input.lookupVersion)
      throw new StaleLookupError();
    await input.withinWrite?.(tx);
    const session = input.sessionId
      ? foundSession(counted.session)
      : input.visitorRef
        ? await findOrStartVisitorSession(deps, tx, {
            tenantId: tenant.id,
            channel: input.channel,
            visitorRef: input.visitorRef,
          })
        : await startSession(deps, tx, { tenantId: tenant.id, channel: input.channel });
    if (session.status === "closed")
      throw new AppError("session_closed", 409, "This session is closed; start a new one.");
    if (session.messageCount === 0) {
      await enqueueEvent(deps, tx, {
        tenantId: tenant.id,
        event: "session.started",
        data: {
          session_id: session.id,
          chatbot_id: session.chatbotId,
          channel: session.channel,
          started_at: toIso(now),
        },
      });
    }
    // The turn's messages are written with the session's update at its end (finishTurn); their
    // ids are taken now, in order, so the visitor's sorts before the reply.
    const visitorMessage = messageRow(deps, session, { role: "visitor", text });
    let status: SessionRow["status"] = session.status;
    let handoffReason = session.handoffReason;
    let state = session.state;
    let reply: ChatMessageRow | null = null;
    let sources: Source[] | undefined;
    let actions: EngineAction[] = [];
    let unanswered: "rule_engine" | "model" | null = null;

    // Re-checked here: an operator may have taken the session over while the model was thinking.
    if (session.status === "bot" && assistant?.ok) {
      const taken = await takenSlotStarts(tx, tenant.id, config, now);
      const { text: replyText, kept } = recheckBookings(
        assistant.draft.text,
        assistant.draft.actions,
        config,
        now,
        taken,
      );
      reply = messageRow(deps, session, { role: "bot", text: replyText, confidence: assistant.draft.confidence });
      actions = kept;
      sources = assistant.draft.sources;
      if (assistantCouldNotAnswer(assistant.draft, text)) unanswered = "model";
    } else if (session.status === "bot") {
      // The input state is never mutated by the engine, so both calls may share it.
      const engineInput = {
        config,
        state: restoreConversationState(JSON.parse(session.state)),
        message: text,
        nowMs: now,
      };
      const output =
        engine.replyUnlessSlotsNeeded?.(engineInput) ??
        engine.reply({ ...engineInput, takenSlotStarts: await takenSlotStarts(tx, tenant.id, config, now) });
      reply = messageRow(deps, session, {
        role: "bot",
        text: output.reply.text,
        quickReplies: output.reply.quick_replies,
        confidence: output.confidence,
      });
      actions = output.actions;
      state = JSON.stringify(output.state);
      if (output.unanswered) unanswered = "rule_engine";
    }
    if (unanswered)
      await recordUnanswered(deps, tx, {
        tenantId: tenant.id,
        sessionId: session.id,
        question: text,
        language: lang(state),
        engine: unanswered,
      });
    for (const action of actions) {
      const change = await applyAction(deps, tx, session, config, action, text);
      if (change.status) status = change.status;
      if (change.handoffReason) handoffReason = change.handoffReason;
    }
    await recordTurnLiveEvents(deps, tx, session, { status, handoffReason, visitorMessage, config });
    if (assistant) await countAiUsage(deps, tx, tenant.id, assistant.usage);
    // The turn's last write: on PostgreSQL a turn that wrote nothing before it (most turns)
    // commits it alone, without BEGIN and COMMIT round trips.
    await tx.chatSessions.finishTurn({
      messages: reply ? [visitorMessage, reply] : [visitorMessage],
      sessionId: session.id,
      update: {
        status: status === session.status ? null : status,
        state,
        messageCount: session.messageCount + 1,
        handoffReason,
        updatedAt: now,
      },
    });
    return {
      session_id: session.id,
      message_id: visitorMessage.id,
      reply: reply ? replyView(reply, sources) : null,
      status,
    };
  });
}

/** The conversation's language after the turn, as the rule engine's state holds it. */
const lang = (state: string): Lang | null => (JSON.parse(state) as { lang?: Lang | null }).lang ?? null;

/** The answer's reply: the fields of its transcript view (toMessageView) a chat response carries. */
function replyView(reply: ChatMessageRow, sources: Source[] | undefined): NonNullable<MessageResult["reply"]> {
  return {
    message_id: reply.id,
    text: reply.text,
    ...(reply.quickReplies ? { quick_replies: reply.quickReplies } : {}),
    ...(sources ? { sources } : {}),
  };
}
