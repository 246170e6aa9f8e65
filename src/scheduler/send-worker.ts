import { sendWebhook, type SendWebhookInput } from "../webhooks/send-webhook.ts";

/**
 * The delivery sender's thread (src/scheduler/send-thread.ts): the scheduler claims and records
 * on the main thread, and the sends — connecting, TLS, writing the signed body, reading the
 * answer — run here, on the other core, so they keep moving while HTTP requests queue on the
 * main thread. sendWebhook never throws: every message gets exactly one answer.
 */
declare const self: Worker;

export interface SendRequest {
  id: number;
  input: Omit<SendWebhookInput, "resolve" | "pinning">;
}

self.onmessage = (event: MessageEvent<SendRequest>) => {
  const { id, input } = event.data;
  void sendWebhook(input).then((result) => self.postMessage({ id, result }));
};
