import type { Deps } from "../deps.ts";
import type { Transaction } from "../db/store.ts";
import { newId } from "../lib/ids.ts";
import { looksLikeQuestion } from "./engine/intents.ts";
import type { Lang } from "./engine/language.ts";
import type { AssistantDraft } from "./turn-assistant.ts";

/** Long enough for any real question; a pasted essay is cut, not stored whole twice. */
const MAX_STORED_QUESTION = 500;

/**
 * The assistant could not answer: a question whose answer cites no knowledge and takes no lead
 * or booking. The model is told to say so honestly and offer a person when the material has no
 * answer (src/assistant/prompt.ts); a hand-off it called then counts too.
 */
export function assistantCouldNotAnswer(draft: AssistantDraft, message: string): boolean {
  if (draft.sources.length > 0 || !looksLikeQuestion(message)) return false;
  return !draft.actions.some((action) => action.type !== "handoff");
}

/** Records the turn's question among the tenant's unanswered ones, inside the turn's transaction. */
export function recordUnanswered(
  deps: Pick<Deps, "clock">,
  tx: Transaction,
  turn: {
    tenantId: string;
    sessionId: string;
    question: string;
    language: Lang | null;
    engine: "rule_engine" | "model";
  },
): Promise<void> {
  const now = deps.clock.now();
  return tx.unanswered.insertUnanswered({
    id: newId("unq", now),
    ...turn,
    question: turn.question.slice(0, MAX_STORED_QUESTION),
    createdAt: now,
  });
}
