import { sendWebhook, type AttemptResult, type SendWebhookInput } from "../webhooks/send-webhook.ts";
import { postBatches } from "./post-batches.ts";

/**
 * The delivery sender's thread (src/scheduler/send-thread.ts): the scheduler claims and records
 * on the main thread, and the sends — connecting, TLS, writing the signed body, reading the
 * answer — run here, on the other core, so they keep moving while HTTP requests queue on the
 * main thread. sendWebhook never throws: every request gets exactly one answer. Both ways,
 * messages travel in batches (post-batches.ts).
 */
declare const self: Worker;

export interface SendRequest {
  id: number;
  input: Omit<SendWebhookInput, "resolve" | "pinning">;
}

export interface SendAnswer {
  id: number;
  result: AttemptResult;
}

const answers = postBatches<SendAnswer>((batch) => self.postMessage(batch), setImmediate);

self.onmessage = (event: MessageEvent<SendRequest[]>) => {
  for (const { id, input } of event.data) void sendWebhook(input).then((result) => answers.push({ id, result }));
};
