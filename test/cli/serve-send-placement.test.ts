import { afterEach, expect, test } from "bun:test";
import { connect } from "node:net";
import { startServer, type RunningServer } from "../../src/cli/serve.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { enqueueEvent } from "../../src/webhooks/emit-event.ts";
import { EVENT_CATALOG } from "../../src/webhooks/events.ts";
import { createRule } from "../../src/webhooks/rules.ts";
import { buildServerDeps, webhookSendsIn } from "../helpers.ts";

// The server sends webhooks from its main thread while no HTTP request waits, and from the send
// thread while one does (src/scheduler/send-thread.ts, wired in src/cli/serve.ts).

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function serverWithReceiver() {
  const arrivals: string[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => {
      arrivals.push(request.headers.get("webhook-id") ?? "");
      return new Response("ok");
    },
  });
  cleanups.push(() => receiver.stop(true));
  const { deps, dispose } = buildServerDeps({ allowPrivateWebhooks: true });
  cleanups.push(dispose);
  const tenant = await createTenant(deps, { name: "Placement" });
  await createRule(deps, tenant.id, {
    name: "hook",
    event: "lead.created",
    url: `http://127.0.0.1:${receiver.port}/hook`,
    secret: "s".repeat(16),
    active: true,
  });
  const server: RunningServer = startServer(deps);
  cleanups.push(() => server.stop());
  const emit = () =>
    deps.store.transaction((tx) =>
      enqueueEvent(deps, tx, {
        tenantId: tenant.id,
        event: "lead.created",
        data: EVENT_CATALOG["lead.created"].example,
      }),
    );
  const arrived = async (count: number) => {
    for (let waited = 0; waited < 5_000 && arrivals.length < count; waited += 5) await Bun.sleep(5);
    expect(arrivals).toHaveLength(count);
  };
  const sends = async () => webhookSendsIn(await (await fetch(`${server.url}/metrics`)).text());
  return { server, emit, arrived, sends };
}

test("with no request waiting the main thread sends; while one waits, the send thread does", async () => {
  const { server, emit, arrived, sends } = await serverWithReceiver();
  const start = await sends();

  await emit();
  await arrived(1);
  const idle = await sends();
  expect({ main: idle.main - start.main, send: idle.send - start.send }).toEqual({ main: 1, send: 0 });

  // A request the server has begun but cannot finish: its body never comes.
  const socket = connect(server.port, "127.0.0.1");
  cleanups.push(() => socket.destroy());
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(
    "POST /api/v1/auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
  );
  await Bun.sleep(50);
  await emit();
  await arrived(2);
  socket.destroy();
  const busy = await sends();
  expect({ main: busy.main - idle.main, send: busy.send - idle.send }).toEqual({ main: 0, send: 1 });
});

test("Bun serves in production mode, whatever NODE_ENV says (development mode costs every request)", async () => {
  // Under `bun test` NODE_ENV is "test", which makes Elysia ask Bun for development mode.
  expect(process.env.NODE_ENV).not.toBe("production");
  const { deps, dispose } = buildServerDeps();
  cleanups.push(dispose);
  const server = startServer(deps);
  cleanups.push(() => server.stop());
  expect(server.development).toBe(false);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});
