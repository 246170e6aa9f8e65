import type { Deps } from "../deps.ts";
import { toIso } from "../lib/clock.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { enqueueEvent } from "../webhooks/emit-event.ts";

export const RATING_COMMENT_MAX_LENGTH = 1000;

export interface RatingInput {
  score: number;
  comment?: string | null;
}

/**
 * The visitor's 1–5 rating of a chat a person closed, once per chat: a second one is 409, so a
 * double click or a replayed request cannot skew the CSAT. Emits `conversation.rated` in the
 * same transaction.
 */
export async function rateSession(
  deps: Pick<Deps, "store" | "clock" | "deliveriesEnqueued" | "deliveryHandoff">,
  tenantId: string,
  sessionId: string,
  input: RatingInput,
) {
  if (!Number.isInteger(input.score) || input.score < 1 || input.score > 5) {
    throw new AppError("validation_failed", 422, "score: must be a whole number from 1 to 5", [
      { field: "score", message: "must be a whole number from 1 to 5" },
    ]);
  }
  const comment = input.comment?.trim().slice(0, RATING_COMMENT_MAX_LENGTH) || null;
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const session = await tx.chatSessions.findSession(tenantId, sessionId);
    if (!session) throw notFound("session");
    if (session.status !== "closed") throw new AppError("session_open", 409, "Only a closed chat can be rated.");
    if ((await tx.desk.insertRating({ sessionId, tenantId, score: input.score, comment, createdAt: now })) === 0) {
      throw new AppError("already_rated", 409, "This chat has already been rated.");
    }
    const data = {
      session_id: sessionId,
      chatbot_id: session.chatbotId,
      score: input.score,
      comment,
      rated_at: toIso(now),
    };
    await enqueueEvent(deps, tx, { tenantId, event: "conversation.rated", data });
    return { ok: true as const, ...data };
  });
}
