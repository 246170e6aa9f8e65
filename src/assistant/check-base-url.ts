import type { Deps } from "../deps.ts";
import { invalidField } from "../lib/validate.ts";
import { isPlainObject } from "../chat/engine/config-fields.ts";
import { inspectWebhookUrl } from "../lib/ssrf.ts";

/**
 * A config PATCH that names `ai.base_url` is checked against the webhook SSRF rules (same
 * PARLEY_ALLOW_PRIVATE_WEBHOOKS flag) before it is stored: a tenant must not point the server
 * at its own loopback or the cloud metadata address. Other shapes are left to the validator.
 */
export async function checkAiBaseUrl(deps: Deps, patch: unknown): Promise<void> {
  if (!isPlainObject(patch) || !isPlainObject(patch.ai) || typeof patch.ai.base_url !== "string") return;
  const verdict = await inspectWebhookUrl(patch.ai.base_url.trim(), {
    allowPrivate: deps.config.allowPrivateWebhooks,
    resolve: deps.resolveHost,
  });
  if (!verdict.ok) throw invalidField("ai.base_url", verdict.message);
}
