import type { ClaimedDelivery, RecordedAttempt } from "../db/store.ts";
import type { Deps } from "../deps.ts";
import type { AttemptResult, SendWebhookInput } from "../webhooks/send-webhook.ts";
import { signedRequest } from "../webhooks/sign.ts";
import { decideFinishedAttempt } from "../webhooks/retry-policy.ts";

export type SendFn = (input: SendWebhookInput) => Promise<AttemptResult>;

/**
 * One signed attempt at a claimed delivery and the retry policy's decision on it (done, retry,
 * dead letter), ready to record. A send that rejects counts as a failed attempt, retried like
 * any other. Not `async`: a send that throws before it starts throws to the caller, as the
 * hand-over expects (the delivery then stays leased and is sent when the lease ends).
 */
export function attemptDelivery(deps: Deps, send: SendFn, delivery: ClaimedDelivery): Promise<RecordedAttempt> {
  const startedAt = deps.clock.now();
  const { body, headers } = signedRequest(delivery, startedAt);
  return send({
    url: delivery.url,
    headers,
    body,
    timeoutMs: deps.config.deliveryTimeoutMs,
    allowPrivate: deps.config.allowPrivateWebhooks,
    resolve: deps.resolveHost,
  })
    .catch(
      (error: unknown): AttemptResult => ({
        ok: false,
        statusCode: null,
        error: `internal_error: ${String(error)}`,
        durationMs: 0,
        responseExcerpt: null,
      }),
    )
    .then((result) =>
      decideFinishedAttempt(deps.config, {
        delivery,
        result,
        startedAt,
        finishedAt: deps.clock.now(),
        requestHeaders: headers,
      }),
    );
}
