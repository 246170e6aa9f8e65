import type { Deps } from "../deps.ts";
import { notFound } from "../lib/app-error.ts";
import { invalidField } from "../lib/validate.ts";

export const DISPLAY_NAME_MAX_LENGTH = 60;

// C0/C1 controls and the line/paragraph separators: the name is drawn on one line in the
// widget and the admin page, and a newline or escape there is never a name.
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;

/**
 * The display name to store: trimmed, 1–60 characters (code points, so an accented or emoji
 * name counts as it reads), no control characters; null clears it.
 */
export function parseDisplayName(raw: string | null): string | null {
  if (raw === null) return null;
  const name = raw.trim();
  if (name.length === 0) throw invalidField("display_name", "must not be empty (send null to clear it)");
  if (CONTROL_CHARACTERS.test(name)) throw invalidField("display_name", "must not contain control characters");
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH)
    throw invalidField("display_name", `must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`);
  return name;
}

/**
 * Sets (or, with null, clears) the name visitors see on the user's replies. Replies already
 * sent keep the name they were sent with (chat_messages.author_name). Answers the account as
 * it now stands (what GET /me shows of it).
 */
export async function setDisplayName(
  deps: Pick<Deps, "store">,
  userId: string,
  raw: string | null,
): Promise<{ email: string; displayName: string | null }> {
  const displayName = parseDisplayName(raw);
  const user = await deps.store.users.findUser(userId);
  if (!user) throw notFound("user");
  await deps.store.users.updateDisplayName(userId, displayName);
  return { email: user.email, displayName };
}
