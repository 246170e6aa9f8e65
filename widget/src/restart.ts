import { ApiError, type Api } from "./api.ts";
import type { StoredState } from "./store.ts";
import type { Strings } from "./strings.ts";

/**
 * Whether a failed send should be retried in a new session: 409 (closed) or 401 (token gone).
 * A network error (a proxy that strips CORS headers from errors, say) is ambiguous: a probe
 * of the transcript tells a dead token (probe fails too) from a merely refused message.
 */
export async function shouldRestart(api: Api, error: unknown, current: StoredState): Promise<boolean> {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 409 || error.status === 401) return true;
  if (error.status !== 0) return false;
  try {
    return (await api.history(current.token, current.sessionId, current.lastId)).status === "closed";
  } catch (probe) {
    return probe instanceof ApiError && (probe.status === 0 || probe.status === 401);
  }
}

/** The bubble already says "Not sent" with Retry; a notice adds why when the visitor can act on it. */
export function failureNotice(error: unknown, s: Strings): string | null {
  const status = error instanceof ApiError ? error.status : -1;
  return status === 0 ? s.offline : status === 403 ? s.notAllowed : status === 429 ? s.rateLimited : null;
}

/**
 * The header's second line after a hand-off: waiting for a person (with the usual reply time
 * when the server knows it; out of hours, when the team is back, in the visitor's own time),
 * then who is answering; null otherwise.
 */
export function handoffStatus(
  state: StoredState | null,
  s: Strings,
  backAt: number | null = null,
  replyS: number | null = null,
): string | null {
  if (state?.status !== "handoff") return null;
  const operator = state.log.findLast((m) => m.role === "operator");
  if (operator) return `${s.joined} ${operator.author || s.agent}`;
  if (backAt === null || backAt <= Date.now())
    return replyS ? s.replyIn.replace("{t}", duration(replyS, s.locale)) : s.waiting;
  return `${s.back} ${new Date(backAt).toLocaleString(undefined, { weekday: "long", hour: "numeric", minute: "2-digit" })}.`;
}

/** "4 minutes", "2 hours" in the widget's language: the usual wait, rounded up to a whole unit. */
function duration(seconds: number, locale: string): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const [value, unit] = minutes < 90 ? [minutes, "minute"] : [Math.ceil(minutes / 60), "hour"];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(value);
}
