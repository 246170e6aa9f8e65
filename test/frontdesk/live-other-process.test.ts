import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTestApp, seedTenant, type TestContext } from "../helpers.ts";
import { openWidgetSession } from "../http/chat-helpers.ts";
import { openDatabase } from "../../src/db/client.ts";
import { closeSession } from "../../src/chat/sessions.ts";
import { eventReader } from "./sse.ts";

// @sqlite-only: a second connection on the same SQLite file stands for another process (the CLI)

let context: TestContext;
let dir = "";
afterEach(() => {
  context?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("on SQLite, a change another process makes on the same file reaches the open streams, though nothing notified the server", async () => {
  dir = mkdtempSync(join(tmpdir(), "parley-live-"));
  const path = join(dir, "parley.db");
  context = buildTestApp({ rateLimits: false }, {}, {}, path);
  const { tenant, apiKey } = await seedTenant(context.deps, "Other Process");
  const visitor = await openWidgetSession(context, tenant.id);
  const inbox = eventReader(await context.request("GET", "/api/v1/inbox/stream", { headers: { "x-api-key": apiKey } }));

  // Another process: its own connection and no way to wake this server's streams.
  const other = openDatabase(path);
  try {
    await closeSession({ store: other.store, clock: context.clock }, tenant.id, visitor.session_id);
  } finally {
    other.close();
  }
  // Found by the hub's own look (every 500 ms while a stream is open).
  expect((await inbox.next(1, 3_000))[0]).toMatchObject({
    event: "session.closed",
    data: { session_id: visitor.session_id },
  });
  await inbox.close();
});
