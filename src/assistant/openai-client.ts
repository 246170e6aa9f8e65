import { fetchPinned, PinnedFetchRefused } from "../lib/pinned-fetch.ts";
import { parseJsonText } from "../lib/safe-json.ts";
import type { ResolveHost } from "../lib/ssrf.ts";

/**
 * The one provider adapter: the OpenAI-compatible Chat Completions and Embeddings APIs, which
 * OpenAI, Ollama (/v1), vLLM, llama.cpp's server, LM Studio and OpenRouter all speak. Every
 * failure becomes a ProviderError with a kind the fallback and /metrics understand.
 */

export interface ProviderEndpoint {
  /** e.g. https://api.openai.com/v1 or http://localhost:11434/v1, without a trailing slash. */
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  /** A tenant's own base URL: checked against the webhook SSRF rules before every call. */
  untrusted: boolean;
  allowPrivate: boolean;
  resolveHost?: ResolveHost;
}

export type ProviderFailureKind = "timeout" | "http_error" | "malformed";

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  temperature?: number;
  max_tokens?: number;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatCompletion {
  text: string;
  toolCalls: ChatToolCall[];
  usage: TokenUsage;
}

async function post(endpoint: ProviderEndpoint, path: string, body: unknown, signal: AbortSignal): Promise<Response> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}${path}`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let response: Response;
  try {
    // Redirects are not followed: a tenant URL must not bounce the request (and its key) elsewhere.
    const init: RequestInit = { method: "POST", headers, body: JSON.stringify(body), signal, redirect: "manual" };
    // A tenant's own base URL is checked against the SSRF rules and connected to the checked address.
    response = endpoint.untrusted
      ? await fetchPinned(url, init, { allowPrivate: endpoint.allowPrivate, resolveHost: endpoint.resolveHost })
      : await fetch(url, init);
  } catch (error) {
    if (error instanceof PinnedFetchRefused)
      throw new ProviderError("http_error", `provider URL refused: ${error.message}`);
    throw asProviderError(error, signal);
  }
  if (response.status < 200 || response.status > 299) {
    const detail = await response.text().catch(() => "");
    throw new ProviderError(
      "http_error",
      `provider answered ${response.status}: ${errorMessageOf(detail)}`,
      response.status,
    );
  }
  return response;
}

function asProviderError(error: unknown, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) return new ProviderError("timeout", "provider did not answer in time");
  return new ProviderError(
    "http_error",
    `provider unreachable: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** The `{"error":{"message"}}` body OpenAI-compatible servers send, shortened for logs. */
function errorMessageOf(text: string): string {
  try {
    const parsed = parseJsonText(text) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === "string" ? parsed.error : parsed.error?.message;
    if (typeof message === "string") return message.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 300);
}

/**
 * One chat completion. With `onDelta` the request streams (SSE) and each piece of text is
 * handed over as it arrives; tool calls, streamed in fragments keyed by `index`, are assembled.
 * The timeout covers the whole call, body included.
 */
export async function createChatCompletion(
  endpoint: ProviderEndpoint,
  request: ChatRequest,
  onDelta?: (text: string) => void,
): Promise<ChatCompletion> {
  const signal = AbortSignal.timeout(endpoint.timeoutMs);
  const stream = onDelta !== undefined;
  const body = stream ? { ...request, stream: true, stream_options: { include_usage: true } } : request;
  try {
    const response = await post(endpoint, "/chat/completions", body, signal);
    return stream ? await readStream(response, onDelta) : parseCompletion(await response.text());
  } catch (error) {
    throw asProviderError(error, signal);
  }
}

interface CompletionChoiceMessage {
  content?: unknown;
  tool_calls?: unknown;
}

function parseJson(text: string): unknown {
  try {
    return parseJsonText(text);
  } catch {
    throw new ProviderError("malformed", "provider answer is not JSON (or nests too deeply)");
  }
}

function usageOf(value: unknown): TokenUsage | null {
  if (typeof value !== "object" || value === null) return null;
  const usage = value as { prompt_tokens?: unknown; completion_tokens?: unknown };
  return {
    promptTokens: typeof usage.prompt_tokens === "number" ? usage.prompt_tokens : 0,
    completionTokens: typeof usage.completion_tokens === "number" ? usage.completion_tokens : 0,
  };
}

function parseCompletion(text: string): ChatCompletion {
  const parsed = parseJson(text) as { choices?: Array<{ message?: CompletionChoiceMessage }>; usage?: unknown };
  const message = Array.isArray(parsed?.choices) ? parsed.choices[0]?.message : undefined;
  if (!message || typeof message !== "object")
    throw new ProviderError("malformed", "provider answer has no choices[0].message");
  if (message.content !== null && message.content !== undefined && typeof message.content !== "string") {
    throw new ProviderError("malformed", "message.content is not a string");
  }
  const toolCalls =
    message.tool_calls === undefined || message.tool_calls === null ? [] : requireToolCalls(message.tool_calls);
  return {
    text: (message.content as string | null | undefined) ?? "",
    toolCalls,
    usage: usageOf(parsed.usage) ?? { promptTokens: 0, completionTokens: 0 },
  };
}

function requireToolCalls(value: unknown): ChatToolCall[] {
  if (!Array.isArray(value)) throw new ProviderError("malformed", "tool_calls is not an array");
  return value.map((call, index) => {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } })?.function;
    if (typeof fn?.name !== "string") throw new ProviderError("malformed", "a tool call has no function name");
    const args = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {});
    const id = (call as { id?: unknown }).id;
    return {
      id: typeof id === "string" && id ? id : `call_${index}`,
      type: "function" as const,
      function: { name: fn.name, arguments: args },
    };
  });
}

interface StreamChunk {
  choices?: Array<{
    finish_reason?: unknown;
    delta?: {
      content?: unknown;
      tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
  usage?: unknown;
  error?: unknown;
}

async function readStream(response: Response, onDelta: (text: string) => void): Promise<ChatCompletion> {
  if (!response.body) throw new ProviderError("malformed", "provider sent no body");
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  let text = "";
  let usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  let buffer = "";
  // Either end marker proves the provider finished: servers differ in which one they send.
  let done = false;
  const decoder = new TextDecoder();

  const handleLine = (line: string): void => {
    if (!line.startsWith("data:")) return; // comments (": keep-alive"), event: and id: lines
    const payload = line.slice(5).trim();
    if (payload === "[DONE]") {
      done = true;
      return;
    }
    const chunk = parseJson(payload) as StreamChunk;
    if (chunk?.error !== undefined)
      throw new ProviderError("http_error", `provider error in stream: ${errorMessageOf(payload)}`);
    usage = usageOf(chunk?.usage) ?? usage;
    const finishReason = chunk?.choices?.[0]?.finish_reason;
    if (typeof finishReason === "string" && finishReason !== "") done = true;
    const delta = chunk?.choices?.[0]?.delta;
    if (!delta) return;
    if (typeof delta.content === "string" && delta.content.length > 0) {
      text += delta.content;
      onDelta(delta.content);
    }
    for (const fragment of delta.tool_calls ?? []) {
      const index = typeof fragment.index === "number" ? fragment.index : calls.length;
      const call = (calls[index] ??= { id: "", name: "", arguments: "" });
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
    }
  };

  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      handleLine(buffer.slice(0, newline).replace(/\r$/, ""));
      buffer = buffer.slice(newline + 1);
    }
  }
  if (buffer.length > 0) handleLine(buffer);
  // A stream cut before its end (a dropped connection, a crashed server) holds half an answer:
  // it is a failure, never a reply.
  if (!done)
    throw new ProviderError(
      "malformed",
      text === "" && calls.length === 0 ? "stream ended without data" : "stream ended before its end marker",
    );
  const toolCalls = calls.filter(Boolean).map((call, index) => {
    if (!call.name) throw new ProviderError("malformed", "a streamed tool call has no function name");
    return {
      id: call.id || `call_${index}`,
      type: "function" as const,
      function: { name: call.name, arguments: call.arguments },
    };
  });
  return { text, toolCalls, usage };
}

/** Vectors for `texts`, in input order (`POST {base_url}/embeddings`). */
export async function createEmbeddings(
  endpoint: ProviderEndpoint,
  model: string,
  texts: string[],
): Promise<number[][]> {
  const signal = AbortSignal.timeout(endpoint.timeoutMs);
  try {
    const response = await post(endpoint, "/embeddings", { model, input: texts }, signal);
    const parsed = parseJson(await response.text()) as { data?: Array<{ embedding?: unknown; index?: unknown }> };
    if (!Array.isArray(parsed?.data) || parsed.data.length !== texts.length)
      throw new ProviderError("malformed", "embeddings answer has the wrong number of vectors");
    const rows = parsed.data.map((row, position) => ({
      index: typeof row.index === "number" ? row.index : position,
      embedding: row.embedding,
    }));
    rows.sort((a, b) => a.index - b.index);
    return rows.map((row) => {
      if (!Array.isArray(row.embedding) || !row.embedding.every((value) => typeof value === "number"))
        throw new ProviderError("malformed", "an embedding is not a list of numbers");
      return row.embedding as number[];
    });
  } catch (error) {
    throw asProviderError(error, signal);
  }
}
