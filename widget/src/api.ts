/** Thrown for every failed call; status 0 means the network (or CORS) refused the request. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfterS = 0,
  ) {
    super(code);
  }
}

export interface QuickReplyMessage {
  message_id: string;
  text: string;
  quick_replies?: string[];
}

export interface SessionStart {
  access_token: string;
  expires_in: number;
  session_id: string;
  bot_name: string;
  greeting: string;
}

export type SessionStatus = "bot" | "handoff" | "closed";

export interface SendResult {
  session_id: string;
  message_id: string;
  reply: QuickReplyMessage | null;
  status: SessionStatus;
}

export interface HistoryMessage extends QuickReplyMessage {
  role: "visitor" | "bot" | "operator";
}

export interface History {
  status: SessionStatus;
  data: HistoryMessage[];
}

export interface Api {
  startSession(): Promise<SessionStart>;
  send(token: string, text: string): Promise<SendResult>;
  history(token: string, sessionId: string, after: string | null): Promise<History>;
  /** Widget telemetry (counted in GET /api/v1/analytics/summary); best effort. */
  track(token: string, names: string[]): Promise<unknown>;
}

async function call<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, mode: "cors", credentials: "omit" });
  } catch {
    throw new ApiError(0, "network");
  }
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!response.ok || !body) {
    throw new ApiError(response.status, body?.error ?? "http_error", Number(response.headers.get("retry-after")) || 0);
  }
  return body;
}

const json = (token: string | null, body?: unknown): RequestInit => ({
  method: body === undefined ? "GET" : "POST",
  headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

export function createApi(base: string, tenantId: string): Api {
  const api = `${base}/api/v1`;
  return {
    startSession: () => call(`${api}/widget/session`, json(null, { tenant_id: tenantId })),
    send: (token, text) => call(`${api}/chatbot/message`, json(token, { tenant_id: tenantId, message: text })),
    history: (token, sessionId, after) =>
      call(`${api}/chatbot/sessions/${encodeURIComponent(sessionId)}/messages${after ? `?after=${encodeURIComponent(after)}` : ""}`, json(token)),
    track: (token, names) => call(`${api}/analytics/events`, json(token, { events: names.map((name) => ({ name })) })),
  };
}
