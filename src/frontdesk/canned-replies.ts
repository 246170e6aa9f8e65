import type { Deps } from "../deps.ts";
import type { CannedReplyRow } from "../db/store.ts";
import { AppError, notFound } from "../lib/app-error.ts";
import { toIso } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";

/** Enough for a front desk's stock answers, and a list the reply box can search without paging. */
export const CANNED_REPLY_LIMIT = 200;
export const SHORTCUT_MAX = 32;
export const CANNED_TEXT_MAX = 2000;
/** What `/` searches by: lower-case letters, digits, `-` and `_`, so it can be typed after the slash. */
export const SHORTCUT_PATTERN = "^[a-z0-9][a-z0-9_-]*$";

export interface CannedReplyInput {
  shortcut: string;
  text: string;
}

export const toCannedReplyView = (row: CannedReplyRow) => ({
  canned_reply_id: row.id,
  shortcut: row.shortcut,
  text: row.text,
  created_at: toIso(row.createdAt),
  updated_at: toIso(row.updatedAt),
});
export type CannedReplyView = ReturnType<typeof toCannedReplyView>;

const shortcutTaken = (shortcut: string) =>
  new AppError("shortcut_taken", 409, `The tenant has a canned reply /${shortcut} already.`);

/** Trims the text (a blank one is 422); the route's schema has checked the shortcut's form and both lengths. */
function cleaned(input: CannedReplyInput): CannedReplyInput {
  const text = input.text.trim();
  if (text.length === 0)
    throw new AppError("validation_failed", 422, "text: must not be blank", [
      { field: "text", message: "must not be blank" },
    ]);
  return { shortcut: input.shortcut, text };
}

export async function listCannedReplies(
  deps: Pick<Deps, "store">,
  tenantId: string,
): Promise<{ data: CannedReplyView[] }> {
  return { data: (await deps.store.cannedReplies.listCannedReplies(tenantId)).map(toCannedReplyView) };
}

/** A new canned reply: at most CANNED_REPLY_LIMIT per tenant (409 limit_reached), one per shortcut (409 shortcut_taken). */
export async function createCannedReply(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
  input: CannedReplyInput,
): Promise<CannedReplyView> {
  const { shortcut, text } = cleaned(input);
  const now = deps.clock.now();
  const row: CannedReplyRow = { id: newId("cnr", now), tenantId, shortcut, text, createdAt: now, updatedAt: now };
  return deps.store.transaction(async (tx) => {
    if ((await tx.cannedReplies.countCannedReplies(tenantId)) >= CANNED_REPLY_LIMIT) {
      throw new AppError(
        "limit_reached",
        409,
        `A tenant keeps at most ${CANNED_REPLY_LIMIT} canned replies; delete one first.`,
      );
    }
    if (!(await tx.cannedReplies.insertCannedReply(row))) throw shortcutTaken(shortcut);
    return toCannedReplyView(row);
  });
}

export async function updateCannedReply(
  deps: Pick<Deps, "store" | "clock">,
  tenantId: string,
  id: string,
  change: Partial<CannedReplyInput>,
): Promise<CannedReplyView> {
  const current = await deps.store.cannedReplies.findCannedReply(tenantId, id);
  if (!current) throw notFound("canned_reply");
  const next = cleaned({ shortcut: change.shortcut ?? current.shortcut, text: change.text ?? current.text });
  const updatedAt = deps.clock.now();
  if ((await deps.store.cannedReplies.updateCannedReply(tenantId, id, { ...next, updatedAt })) === 0)
    throw shortcutTaken(next.shortcut);
  return toCannedReplyView({ ...current, ...next, updatedAt });
}

export async function deleteCannedReply(deps: Pick<Deps, "store">, tenantId: string, id: string) {
  if ((await deps.store.cannedReplies.deleteCannedReply(tenantId, id)) === 0) throw notFound("canned_reply");
  return { ok: true as const, canned_reply_id: id, deleted: true as const };
}
