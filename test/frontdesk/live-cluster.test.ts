import { modelAssistant } from "../../src/assistant/turn-assistant.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { createClusterSignal, LIVE_EVENTS_CHANNEL, type ClusterSignal } from "../../src/db/open-store.ts";
import { createPostgresStore } from "../../src/db/postgres/store.ts";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/http/app.ts";
import { createAppDeps } from "../../src/http/deps.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { silentLogger } from "../../src/lib/log.ts";
import { createSignal } from "../../src/lib/signal.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";
import { createUser } from "../../src/auth/create-user.ts";
import { setDisplayName } from "../../src/auth/display-name.ts";
import { openTestPgStore, testPostgresUrl, type TestPgStore } from "../pg/test-store.ts";
import { CHEAP_TEST_PASSWORDS, TEST_JWT_SECRET, TEST_PASSWORD } from "../helpers.ts";
import { eventReader } from "./sse.ts";

// Two server instances on one PostgreSQL database: what one commits reaches the streams the
// other serves, woken by LISTEN/NOTIFY (the hub's 5 s safety poll would be too slow to pass).

describe.skipIf(!testPostgresUrl())("live streams across PostgreSQL instances", () => {
  let database: TestPgStore;
  let secondPool: SQL;
  const signals: ClusterSignal[] = [];

  function instance(sql: SQL) {
    const liveEventsWritten = createClusterSignal(sql, LIVE_EVENTS_CHANNEL);
    signals.push(liveEventsWritten);
    const config = { ...loadConfig({ PARLEY_JWT_SECRET: TEST_JWT_SECRET }), rateLimits: false };
    const deps = createAppDeps({
      store: createPostgresStore(sql),
      config,
      clock: systemClock,
      log: silentLogger,
      assistant: modelAssistant,
      deliveriesEnqueued: createSignal(),
      liveEventsWritten,
      passwords: CHEAP_TEST_PASSWORDS,
    });
    const app = createApp(deps);
    const request = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
      app.handle(
        new Request(`http://localhost${path}`, {
          method,
          headers: { "content-type": "application/json", ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    return { deps, request, liveEventsWritten };
  }

  beforeAll(async () => {
    const url = testPostgresUrl() as string;
    database = await openTestPgStore(url);
    secondPool = new SQL({ url, max: 4, connection: { search_path: database.schema } });
  });
  afterAll(async () => {
    for (const signal of signals) await signal.close();
    await secondPool.close();
    await database.close();
  });

  test("a hand-off taken on one instance reaches the inbox stream on the other, and the reply the widget stream back", async () => {
    const one = instance(database.sql);
    const two = instance(secondPool);
    const tenant = await createTenant(one.deps, { name: "Cluster" });
    const agent = await createUser(one.deps, {
      email: "sam@cluster.test",
      tenantId: tenant.id,
      role: "agent",
      password: TEST_PASSWORD,
    });
    await setDisplayName(one.deps, agent.userId, "Sam");
    const login = (await (
      await two.request("POST", "/api/v1/auth/token", {}, { email: "sam@cluster.test", password: TEST_PASSWORD })
    ).json()) as { access_token: string };
    const operator = { authorization: `Bearer ${login.access_token}` };
    const visitor = (await (
      await one.request("POST", "/api/v1/widget/session", {}, { tenant_id: tenant.id })
    ).json()) as { access_token: string; session_id: string };

    const inbox = eventReader(await two.request("GET", "/api/v1/inbox/stream", operator));
    await two.liveEventsWritten.whenListening();
    await one.request(
      "POST",
      "/api/v1/chatbot/message",
      { authorization: `Bearer ${visitor.access_token}` },
      { tenant_id: tenant.id, message: "Can I talk to a human please?" },
    );
    expect((await inbox.next(1, 3_000))[0]).toMatchObject({
      event: "handoff.requested",
      data: { session_id: visitor.session_id },
    });

    const widget = eventReader(
      await one.request("GET", `/api/v1/chatbot/sessions/${visitor.session_id}/stream`, {
        authorization: `Bearer ${visitor.access_token}`,
      }),
    );
    await one.liveEventsWritten.whenListening();
    await two.request("POST", `/api/v1/sessions/${visitor.session_id}/operator-messages`, operator, {
      text: "Sam here",
    });
    expect((await widget.next(1, 3_000))[0]).toMatchObject({
      event: "operator.message",
      data: { text: "Sam here", author_name: "Sam" },
    });
    await Promise.all([inbox.close(), widget.close()]);
  });
});
