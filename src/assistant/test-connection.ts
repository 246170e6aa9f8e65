import type { Deps } from "../deps.ts";
import { getBotConfig } from "../chat/bot-settings.ts";
import { createChatCompletion, ProviderError } from "./openai-client.ts";
import { resolveAiSettings } from "./settings.ts";

export interface ConnectionTestResult {
  ok: boolean;
  model: string | null;
  latency_ms: number;
  error?: string;
}

/**
 * The admin page's "Test connection": one tiny completion with the tenant's effective settings.
 * A failure is an answer (`ok: false` with the provider's reason), not an HTTP error, and does
 * not count against the circuit breaker or the tenant's usage.
 */
export async function testAiConnection(deps: Deps, tenantId: string): Promise<ConnectionTestResult> {
  const settings = resolveAiSettings(deps, await getBotConfig(deps, tenantId));
  if (settings === null)
    return {
      ok: false,
      model: null,
      latency_ms: 0,
      error:
        "No model provider is configured (set ai.base_url and ai.model, or PARLEY_AI_BASE_URL and PARLEY_AI_MODEL).",
    };
  const started = deps.clock.now();
  try {
    await createChatCompletion(settings.endpoint, {
      model: settings.model,
      messages: [{ role: "user", content: "Reply with the single word OK." }],
      max_tokens: 5,
    });
    return { ok: true, model: settings.model, latency_ms: deps.clock.now() - started };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { ok: false, model: settings.model, latency_ms: deps.clock.now() - started, error: error.message };
  }
}
