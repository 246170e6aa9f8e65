import { afterEach, expect, test } from "bun:test";
import { sendThreadMetrics, startSendThread, type SendThread } from "../../src/scheduler/send-thread.ts";
import { buildTestApp, webhookSendsIn } from "../helpers.ts";
import { silentLogger } from "../../src/lib/log.ts";

// The server's webhook sends run on a second thread (both cores): the same attempt
// results as sendWebhook on the main thread, and the main thread only posts and receives.

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function receiver(status: number) {
  const seen: Array<{ id: string | null; body: string }> = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      seen.push({ id: request.headers.get("webhook-id"), body: await request.text() });
      return new Response(status === 200 ? "ok" : "nope", { status });
    },
  });
  cleanups.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/hook`, seen };
}

function thread(): SendThread {
  const sendThread = startSendThread(silentLogger);
  cleanups.push(() => sendThread.stop());
  return sendThread;
}

test("sends go out from the thread and answer with the attempt's result", async () => {
  const ok = receiver(200);
  const failing = receiver(503);
  const sendThread = thread();
  const input = (url: string, id: string) => ({
    url,
    headers: { "content-type": "application/json", "webhook-id": id },
    body: `{"id":"${id}"}`,
    timeoutMs: 5_000,
    allowPrivate: true,
  });
  const results = await Promise.all([
    sendThread.send(input(ok.url, "msg_1")),
    sendThread.send(input(failing.url, "msg_2")),
    sendThread.send(input(ok.url, "msg_3")),
  ]);
  expect(results.map((result) => [result.ok, result.statusCode, result.error])).toEqual([
    [true, 200, null],
    [false, 503, "http_status: 503"],
    [true, 200, null],
  ]);
  expect(results[0]?.responseExcerpt).toBe("ok");
  expect(ok.seen.map((request) => request.id).sort()).toEqual(["msg_1", "msg_3"]);
  expect(sendThread.counts()).toEqual({ thread: 3, main: 0 });
});

test("the SSRF check runs in the thread too: a private address is refused unless allowed", async () => {
  const ok = receiver(200);
  const sendThread = thread();
  const result = await sendThread.send({ url: ok.url, headers: {}, body: "{}", timeoutMs: 5_000, allowPrivate: false });
  expect(result).toMatchObject({ ok: false, statusCode: null });
  expect(result.error).toContain("forbidden_address");
  expect(ok.seen).toHaveLength(0);
});

test("a send that carries a function (a test's fake DNS) runs on the main thread", async () => {
  const ok = receiver(200);
  const sendThread = thread();
  const result = await sendThread.send({
    url: ok.url,
    headers: {},
    body: "{}",
    timeoutMs: 5_000,
    allowPrivate: true,
    resolve: async () => ["127.0.0.1"],
  });
  expect(result.ok).toBe(true);
  expect(sendThread.counts()).toEqual({ thread: 0, main: 1 });
});

test("sends still waiting when the thread stops answer as failed attempts (the schedule retries them)", async () => {
  let release: () => void = () => {};
  let arrived: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async () => (arrived(), await held, new Response("late")),
  });
  cleanups.push(() => server.stop(true));
  const sendThread = startSendThread(silentLogger);
  const pending = sendThread.send({
    url: `http://127.0.0.1:${server.port}/`,
    headers: {},
    body: "{}",
    timeoutMs: 5_000,
    allowPrivate: true,
  });
  await reached; // the thread's request is at the receiver, waiting for its answer
  await sendThread.stop();
  release();
  expect(await pending).toMatchObject({ ok: false, statusCode: null });
});

test("with no HTTP request waiting, sends run on the main thread; while requests wait, on the thread", async () => {
  const ok = receiver(200);
  let busy = false;
  const sendThread = startSendThread(silentLogger, { mainThreadBusy: () => busy });
  cleanups.push(() => sendThread.stop());
  const input = (id: string) => ({
    url: ok.url,
    headers: { "webhook-id": id },
    body: "{}",
    timeoutMs: 5_000,
    allowPrivate: true,
  });
  expect((await sendThread.send(input("msg_idle"))).ok).toBe(true);
  expect(sendThread.counts()).toEqual({ thread: 0, main: 1 });
  busy = true;
  expect((await sendThread.send(input("msg_busy"))).ok).toBe(true);
  expect(sendThread.counts()).toEqual({ thread: 1, main: 1 });
  // The SSRF check is the same on either thread.
  busy = false;
  const refused = await sendThread.send({ ...input("msg_private"), allowPrivate: false });
  expect(refused.error).toContain("forbidden_address");
  expect(ok.seen.map((request) => request.id)).toEqual(["msg_idle", "msg_busy"]);
});

test("GET /metrics counts webhook sends by the thread that made them", async () => {
  const ok = receiver(200);
  let busy = true;
  const sendThread = startSendThread(silentLogger, { mainThreadBusy: () => busy });
  cleanups.push(() => sendThread.stop());
  const before = webhookSendsIn(sendThreadMetrics());
  const input = { url: ok.url, headers: {}, body: "{}", timeoutMs: 5_000, allowPrivate: true };
  await sendThread.send(input);
  await sendThread.send(input);
  busy = false;
  await sendThread.send(input);
  const text = await (await buildTestApp().request("GET", "/metrics")).text();
  const after = webhookSendsIn(text);
  expect({ main: after.main - before.main, send: after.send - before.send }).toEqual({ main: 1, send: 2 });
});
