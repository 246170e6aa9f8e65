import { invalidField } from "../../lib/validate.ts";
import {
  rejectUnknownKeys,
  requireBoolean,
  requireInteger,
  requireNumber,
  requireString,
  type JsonObject,
} from "./config-fields.ts";

/**
 * The `ai` section of the bot configuration: a tenant's override of the server-wide provider.
 * Every field may be null ("use the server's"). The API key is write-only: the document keeps
 * only its AES-GCM ciphertext (`api_key_sealed`) and the API shows `api_key_set` instead.
 */
export interface AiConfig {
  /** false: this tenant never uses a model, even when the server has one. */
  enabled: boolean;
  base_url: string | null;
  model: string | null;
  embedding_model: string | null;
  /** Extra instructions from the business, appended to the system prompt. */
  instructions: string;
  temperature: number | null;
  max_reply_tokens: number | null;
  /** The embedding model's relevance cosine (docs/knowledge.md); null: the default 0.5. */
  min_similarity: number | null;
  api_key_sealed: string | null;
}

/** What GET/PATCH /chatbot/config shows: the key's ciphertext never leaves the server. */
export type AiConfigView = Omit<AiConfig, "api_key_sealed"> & { api_key_set: boolean };

export const DEFAULT_AI_CONFIG: AiConfig = Object.freeze({
  enabled: true,
  base_url: null,
  model: null,
  embedding_model: null,
  instructions: "",
  temperature: null,
  max_reply_tokens: null,
  min_similarity: null,
  api_key_sealed: null,
});

const AI_KEYS = [
  "enabled",
  "base_url",
  "model",
  "api_key",
  "embedding_model",
  "instructions",
  "temperature",
  "max_reply_tokens",
  "min_similarity",
] as const;

const nullable = <T>(value: unknown, read: (value: unknown) => T): T | null => (value === null ? null : read(value));

/** http(s) and no credentials; whether the host may be called is the SSRF check's business (at PATCH and call time). */
function requireBaseUrl(value: unknown): string {
  const text = requireString(value, "ai.base_url", 1, 500);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw invalidField("ai.base_url", "must be an absolute http(s) URL such as https://api.openai.com/v1");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw invalidField("ai.base_url", "must be an http(s) URL");
  if (parsed.username || parsed.password)
    throw invalidField("ai.base_url", "must not contain a username or password; use ai.api_key");
  if (parsed.search || parsed.hash) throw invalidField("ai.base_url", "must not have a query or fragment");
  return parsed.origin + parsed.pathname.replace(/\/+$/, "");
}

/**
 * Merges a PATCH's `ai` object into `current` (never mutated). `sealApiKey` encrypts a new
 * key; `"api_key": null` forgets the stored one.
 */
export function mergeAiConfig(
  patch: JsonObject,
  current: AiConfig | undefined,
  sealApiKey?: (plain: string) => string,
): AiConfig {
  rejectUnknownKeys(patch, AI_KEYS, "ai");
  const next: AiConfig = { ...DEFAULT_AI_CONFIG, ...current };
  if ("enabled" in patch) next.enabled = requireBoolean(patch.enabled, "ai.enabled");
  if ("base_url" in patch) next.base_url = nullable(patch.base_url, requireBaseUrl);
  if ("model" in patch) next.model = nullable(patch.model, (value) => requireString(value, "ai.model", 1, 200));
  if ("embedding_model" in patch)
    next.embedding_model = nullable(patch.embedding_model, (value) =>
      requireString(value, "ai.embedding_model", 1, 200),
    );
  if ("instructions" in patch)
    next.instructions =
      patch.instructions === null ? "" : requireString(patch.instructions, "ai.instructions", 0, 4000);
  if ("temperature" in patch)
    next.temperature = nullable(patch.temperature, (value) => requireNumber(value, "ai.temperature", 0, 2));
  if ("max_reply_tokens" in patch)
    next.max_reply_tokens = nullable(patch.max_reply_tokens, (value) =>
      requireInteger(value, "ai.max_reply_tokens", 16, 4096),
    );
  if ("min_similarity" in patch)
    next.min_similarity = nullable(patch.min_similarity, (value) => requireNumber(value, "ai.min_similarity", 0, 1));
  if ("api_key" in patch) {
    if (patch.api_key === null) next.api_key_sealed = null;
    else {
      const plain = requireString(patch.api_key, "ai.api_key", 1, 500);
      if (!sealApiKey) throw invalidField("ai.api_key", "cannot be stored through this path");
      next.api_key_sealed = sealApiKey(plain);
    }
  }
  return next;
}

export function aiConfigView(config: AiConfig | undefined): AiConfigView {
  const { api_key_sealed: sealed, ...rest } = { ...DEFAULT_AI_CONFIG, ...config };
  return { ...rest, api_key_set: sealed !== null };
}

/** The bot config as the API shows it: the `ai` section with `api_key_set` instead of the sealed key. */
export function botConfigView<T extends { ai?: AiConfig }>(config: T): Omit<T, "ai"> & { ai: AiConfigView } {
  return { ...config, ai: aiConfigView(config.ai) };
}
