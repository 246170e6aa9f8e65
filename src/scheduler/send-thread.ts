import { sendWebhook, type AttemptResult, type SendWebhookInput } from "../webhooks/send-webhook.ts";
import type { Logger } from "../lib/log.ts";
import type { SendAnswer, SendRequest } from "./send-worker.ts";
import { postBatches } from "./post-batches.ts";
import { workerEntry } from "../lib/worker-entry.ts";

export interface SendThread {
  send(input: SendWebhookInput): Promise<AttemptResult>;
  /** Ends the thread; call after the scheduler has stopped (no send in flight). */
  stop(): Promise<void>;
  /** Sends answered by the thread, and sends run on the main thread instead. */
  counts(): { thread: number; main: number };
}

export interface SendThreadOptions {
  /**
   * Whether the main thread has HTTP requests to serve right now (the server passes Bun's
   * `pendingRequests > 0`). While it has none, sends run on the main thread: a send through
   * the thread costs the process more CPU than the same send made here (the hand-over both
   * ways and a second event loop waking for it), so a backlog with no HTTP traffic drains
   * faster on the main thread (docs/hot-path.md). Without it, every send goes to the thread.
   */
  mainThreadBusy?: () => boolean;
}

/** Webhook sends by the thread that made them, process-wide (one server per process), for /metrics. */
const sendStats = { running: 0, main: 0, thread: 0 };

/** Prometheus text: where webhook sends were made; empty while no send thread runs (CLI commands). */
export function sendThreadMetrics(): string {
  if (sendStats.running === 0) return "";
  return [
    "# HELP parley_webhook_sends_total Webhook sends by the thread that made them: the send thread while HTTP requests wait, else the main thread.\n",
    "# TYPE parley_webhook_sends_total counter\n",
    `parley_webhook_sends_total{thread="main"} ${sendStats.main}\n`,
    `parley_webhook_sends_total{thread="send"} ${sendStats.thread}\n`,
  ].join("");
}

/**
 * Webhook sends on a second thread (a Bun Worker running send-worker.ts), for the server: the
 * main thread serves HTTP and runs the scheduler's claims and bookkeeping, the worker does the
 * network work of every attempt, so a chat load that fills the main thread's event loop does
 * not hold the webhooks back (both cores at work). The compiled binary carries the worker
 * as a second entry point (package.json's build script).
 *
 * Only while HTTP requests are waiting, though (SendThreadOptions.mainThreadBusy): with none,
 * a send is cheaper made here. A send that needs a function (a test's fake DNS or dialer)
 * cannot cross to the worker and runs here. If the worker dies, its sends in flight answer as
 * failed attempts (retried by the schedule) and later sends run on the main thread.
 */
export function startSendThread(log: Logger, options: SendThreadOptions = {}): SendThread {
  const mainThreadBusy = options.mainThreadBusy ?? (() => true);
  const worker = new Worker(workerEntry("scheduler/send-worker", new URL("./send-worker.ts", import.meta.url)));
  const waiting = new Map<number, (result: AttemptResult) => void>();
  let next = 0;
  let broken = false;
  let stopped = false;
  const counts = { thread: 0, main: 0 };
  sendStats.running++;
  const failAll = (why: string) => {
    if (!broken && !stopped)
      log.error({ msg: "the webhook send thread failed; sending on the main thread", error: why });
    broken = true;
    for (const resolve of waiting.values())
      resolve({ ok: false, statusCode: null, error: `internal_error: ${why}`, durationMs: 0, responseExcerpt: null });
    waiting.clear();
  };
  worker.onmessage = (event: MessageEvent<SendAnswer[]>) => {
    for (const { id, result } of event.data) {
      const resolve = waiting.get(id);
      waiting.delete(id);
      counts.thread++;
      resolve?.(result);
    }
  };
  // Sends handed over in one turn of the event loop cross in one message (see postBatches).
  const outbox = postBatches<SendRequest>((batch) => worker.postMessage(batch), queueMicrotask);
  worker.onerror = (event) => failAll(event.message);
  worker.addEventListener("close", () => {
    if (waiting.size > 0) failAll("the send thread ended");
  });
  return {
    send(input) {
      if (broken || input.resolve || input.pinning || !mainThreadBusy()) {
        counts.main++;
        sendStats.main++;
        return sendWebhook(input);
      }
      sendStats.thread++;
      const id = next++;
      const request: SendRequest = {
        id,
        input: {
          url: input.url,
          headers: input.headers,
          body: input.body,
          timeoutMs: input.timeoutMs,
          allowPrivate: input.allowPrivate,
        },
      };
      return new Promise<AttemptResult>((resolve) => {
        waiting.set(id, resolve);
        outbox.push(request);
      });
    },
    async stop() {
      if (!stopped) sendStats.running--;
      stopped = true;
      failAll("stopped");
      worker.terminate();
    },
    counts: () => ({ ...counts }),
  };
}
