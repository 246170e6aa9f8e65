import { afterEach, expect, test } from "bun:test";
import { startServer } from "../../src/cli/serve.ts";
import { queueWhatsappReplies } from "../../src/integrations/whatsapp-send.ts";
import { buildServerDeps } from "../helpers.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

test("a graceful stop waits for WhatsApp replies still on their way to the Cloud API", async () => {
  const received: string[] = [];
  let release: () => void = () => {};
  const answerLater = new Promise<void>((resolve) => (release = resolve));
  // A Cloud API that takes its time: it answers only when the test says so.
  const cloudApi = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      received.push(((await request.json()) as { text: { body: string } }).text.body);
      await answerLater;
      return Response.json({ messages: [{ id: "wamid.1" }] });
    },
  });
  cleanups.push(() => cloudApi.stop(true));
  const { deps, dispose } = buildServerDeps({ whatsappApiUrl: `http://127.0.0.1:${cloudApi.port}/v21.0` });
  cleanups.push(dispose);
  const server = startServer(deps);

  queueWhatsappReplies(
    deps,
    "ten_x",
    { verifyToken: "v".repeat(8), appSecret: "a".repeat(16), accessToken: "t".repeat(16), phoneNumberId: "123" },
    [{ to: "15550001111", reply: { text: "Your appointment is confirmed." } }],
  );
  let stopped = false;
  const stopping = server.stop().then(() => {
    stopped = true;
  });
  for (let i = 0; i < 200 && received.length === 0; i++) await Bun.sleep(5);
  expect(received).toEqual(["Your appointment is confirmed."]);
  await Bun.sleep(20);
  expect(stopped).toBe(false); // still waiting for the Cloud API's answer
  release();
  await stopping;
  expect(stopped).toBe(true);
});
