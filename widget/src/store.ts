import type { SessionStatus } from "./api.ts";

export interface StoredMessage {
  /** Server id; null for the greeting and for local notices. */
  id: string | null;
  role: "visitor" | "bot" | "operator" | "notice";
  text: string;
  quick?: string[];
  /** The documents a bot answer cited: title, and a link when the server gave an http(s) URL. */
  sources?: Array<{ title: string; url?: string }>;
  /** A visitor message the server did not take (offline, 5xx, 429): shown with Retry, kept across reloads. */
  failed?: boolean;
  /** An operator's display name (author_name), when the server sent one; else the localised "Agent" is shown. */
  author?: string | null;
  /** When it was written (epoch ms): shown relative ("2 minutes ago"), the full time on hover. */
  at?: number;
}

export interface StoredState {
  /** Empty until a session has started (messages typed while offline still need a home). */
  token: string;
  /** Epoch ms the visitor token stops working. */
  expiresAt: number;
  sessionId: string;
  lastId: string | null;
  status: SessionStatus;
  botName: string;
  log: StoredMessage[];
  /** The visitor's newest message a person has opened the chat after: "Seen" under it. */
  seenId?: string | null;
  /** The closed chat was rated (or the visitor dismissed the question): it is not asked again. */
  rated?: boolean;
}

const MAX_LOG = 200;
const keyFor = (tenant: string) => `parley:${tenant}`;

/** The saved conversation, or null (none, unreadable, or storage blocked by the browser). */
export function loadState(tenant: string): StoredState | null {
  try {
    const raw = localStorage.getItem(keyFor(tenant));
    const state = raw ? (JSON.parse(raw) as StoredState) : null;
    return state && typeof state.token === "string" && Array.isArray(state.log) ? state : null;
  } catch {
    return null;
  }
}

export function saveState(tenant: string, state: StoredState): void {
  try {
    if (state.log.length > MAX_LOG) state.log = state.log.slice(-MAX_LOG);
    localStorage.setItem(keyFor(tenant), JSON.stringify(state));
  } catch {
    // Private mode or a full quota: the chat still works, it just won't survive a reload.
  }
}
