import type { Deps } from "../deps.ts";
import type { BotConfig } from "../chat/engine/bot-config.ts";
import { getBotConfig } from "../chat/bot-settings.ts";
import type { Embedder } from "../knowledge/embedder.ts";
import { DEFAULT_AI_CONFIG } from "../chat/engine/ai-config.ts";
import { createEmbeddings, type ProviderEndpoint } from "./openai-client.ts";
import { openSecret } from "../lib/secret-box.ts";

/** Everything a model call needs, resolved from the server's PARLEY_AI_* and the tenant's `ai` override. */
export interface AiSettings {
  endpoint: ProviderEndpoint;
  model: string;
  embeddingModel: string | null;
  instructions: string;
  temperature: number | null;
  maxReplyTokens: number | null;
  /** The tenant's relevance cosine for its embedding model; null: the search default. */
  minSimilarity: number | null;
}

/**
 * The tenant's provider, or null when it has none (the rule engine answers). A tenant that
 * names its own base_url gets neither the server's API key nor its model names: the server's
 * key must never be sent to a URL a tenant chose. The server-wide URL is the operator's and is
 * trusted; a tenant's is checked against the webhook SSRF rules at every call.
 */
export function resolveAiSettings(deps: Deps, config: BotConfig): AiSettings | null {
  const ai = config.ai ?? DEFAULT_AI_CONFIG;
  const server = deps.config;
  if (!ai.enabled) return null;
  if (ai.base_url === null && server.aiBaseUrl === null) return null; // the default: no provider, no allocation
  const own = ai.base_url !== null;
  const baseUrl = ai.base_url ?? server.aiBaseUrl;
  const model = ai.model ?? (own ? null : server.aiModel);
  if (baseUrl === null || model === null) return null;
  const tenantKey = ai.api_key_sealed === null ? null : openSecret(deps, ai.api_key_sealed);
  return {
    endpoint: {
      baseUrl,
      apiKey: tenantKey ?? (own ? null : server.aiApiKey),
      timeoutMs: server.aiTimeoutMs,
      untrusted: own,
      allowPrivate: server.allowPrivateWebhooks,
      resolveHost: deps.resolveHost,
    },
    model,
    embeddingModel: ai.embedding_model ?? (own ? null : server.aiEmbeddingModel),
    instructions: ai.instructions,
    temperature: ai.temperature,
    maxReplyTokens: ai.max_reply_tokens,
    minSimilarity: ai.min_similarity ?? null,
  };
}

export function embedderFor(settings: AiSettings | null): Embedder | null {
  if (!settings?.embeddingModel) return null;
  const { endpoint, embeddingModel, minSimilarity } = settings;
  return {
    model: embeddingModel,
    ...(minSimilarity === null ? {} : { minSimilarity }),
    embed: (texts) => createEmbeddings(endpoint, embeddingModel, texts),
  };
}

/** The tenant's embedder when an embedding model is named (server-wide or its own), else null: BM25 only. */
export async function embedderForTenant(deps: Deps, tenantId: string): Promise<Embedder | null> {
  return embedderFor(resolveAiSettings(deps, await getBotConfig(deps, tenantId)));
}
