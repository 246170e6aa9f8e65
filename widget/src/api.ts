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
  /** The documents the assistant's answer cited. */
  sources?: Array<{ document_id: string; title: string; url?: string }>;
}

/** GET /widget/config: asked before the launcher is drawn (a refused origin gets a 403). */
export interface WidgetSettings {
  bot_name: string;
  greeting: string;
  quick_replies: string[];
  /** Outside business hours, when the team is back (ISO); null or absent while it is in. */
  back_at?: string | null;
  /** While the team is in, how long a person usually takes to reply (seconds); null with too little data. */
  expected_reply_s?: number | null;
}

export interface SessionStart extends WidgetSettings {
  access_token: string;
  expires_in: number;
  session_id: string;
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
  /** The operator's display name as it was when the reply was sent; null for other roles or when unset. */
  author_name?: string | null;
  created_at?: string;
}

export interface History {
  status: SessionStatus;
  /** The visitor's newest message a person has opened the chat after. */
  seen_message_id?: string | null;
  data: HistoryMessage[];
}

/** What the chat's live stream carries (each event uses some of it). */
export interface LiveData {
  author_name?: string | null;
  message_id?: string;
}

export interface Api {
  settings(): Promise<WidgetSettings>;
  startSession(): Promise<SessionStart>;
  /** Asks for a stream: `onDelta` gets the reply's text as the model writes it; plain JSON still works. */
  send(token: string, text: string, onDelta?: (text: string) => void): Promise<SendResult>;
  history(token: string, sessionId: string, after: string | null): Promise<History>;
  /** Widget telemetry (counted in GET /api/v1/analytics/summary); best effort. */
  track(token: string, names: string[]): Promise<unknown>;
  /** The chat's live stream: resolves when it ends (the server went away, or `stop` aborted it). */
  live(
    token: string,
    sessionId: string,
    onEvent: (kind: string, data: LiveData) => void,
    stop: AbortSignal,
  ): Promise<void>;
  /** The visitor's 1–5 rating of the closed chat, once (409 after that). */
  rate(token: string, sessionId: string, score: number, comment: string): Promise<unknown>;
}

async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, mode: "cors", credentials: "omit" });
  } catch {
    throw new ApiError(0, "network");
  }
}

const call = async <T>(url: string, init: RequestInit): Promise<T> => readJson<T>(await request(url, init));

/** Calls `onFrame` with each `event:`/`data:` frame of a server-sent events body; false from it stops reading. */
async function readFrames(
  body: ReadableStream<Uint8Array>,
  onFrame: (event: string | undefined, data: string) => boolean | undefined,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true, value: undefined }) as const);
    buffer += decoder.decode(chunk.value, { stream: !chunk.done });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (data && onFrame(/^event: (.*)$/m.exec(frame)?.[1], data) === false)
        return void reader.cancel().catch(() => undefined);
    }
    if (chunk.done) return;
  }
}

/** `event: delta` frames until the one `event: done`, whose data is the plain JSON answer. */
async function callStream(url: string, init: RequestInit, onDelta: (text: string) => void): Promise<SendResult> {
  const response = await request(url, init);
  const body = response.body;
  if (!response.ok || !body || !(response.headers.get("content-type") ?? "").includes("event-stream"))
    return readJson(response);
  let result: SendResult | null = null;
  let failure: ApiError | null = null;
  await readFrames(body, (event, data) => {
    const parsed = JSON.parse(data);
    if (event === "delta") onDelta(parsed.text);
    else if (event === "done") result = parsed;
    else if (event === "error") failure = new ApiError(500, parsed.error);
    return !result && !failure;
  });
  if (failure) throw failure;
  if (!result) throw new ApiError(0, "network");
  return result;
}

async function readJson<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!response.ok || !body) {
    throw new ApiError(response.status, body?.error ?? "http_error", Number(response.headers.get("retry-after")) || 0);
  }
  return body;
}

const json = (token: string | null, body?: unknown): RequestInit => ({
  method: body === undefined ? "GET" : "POST",
  headers: {
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** The page the chat starts on, for the operators' inbox: no query or fragment (they may hold a token). */
const pageUrl = (): string | undefined => {
  const page = location.origin + location.pathname;
  return /^https?:$/.test(location.protocol) && page.length <= 2048 ? page : undefined;
};

export function createApi(base: string, tenantId: string, lang: string): Api {
  const api = `${base}/api/v1`;
  return {
    settings: () => call(`${api}/widget/config?tenant_id=${encodeURIComponent(tenantId)}&lang=${lang}`, json(null)),
    startSession: () => call(`${api}/widget/session`, json(null, { tenant_id: tenantId, lang, page_url: pageUrl() })),
    send: (token, text, onDelta) => {
      const init = json(token, { tenant_id: tenantId, message: text });
      if (!onDelta) return call(`${api}/chatbot/message`, init);
      return callStream(
        `${api}/chatbot/message`,
        { ...init, headers: { ...init.headers, accept: "text/event-stream" } },
        onDelta,
      );
    },
    history: (token, sessionId, after) =>
      call(
        `${api}/chatbot/sessions/${encodeURIComponent(sessionId)}/messages${after ? `?after=${encodeURIComponent(after)}` : ""}`,
        json(token),
      ),
    rate: (token, sessionId, score, comment) =>
      call(
        `${api}/chatbot/sessions/${encodeURIComponent(sessionId)}/rating`,
        json(token, { score, ...(comment.trim() ? { comment: comment.trim() } : {}) }),
      ),
    track: (token, names) => call(`${api}/analytics/events`, json(token, { events: names.map((name) => ({ name })) })),
    async live(token, sessionId, onEvent, stop) {
      const response = await request(`${api}/chatbot/sessions/${encodeURIComponent(sessionId)}/stream`, {
        ...json(token),
        signal: stop,
      });
      if (!response.ok || !response.body) throw new ApiError(response.status, "stream");
      await readFrames(response.body, (event, data) => void (event && onEvent(event, JSON.parse(data))));
    },
  };
}
