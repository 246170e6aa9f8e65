import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { createClusterSignal } from "../../src/db/open-store.ts";
import { testPostgresUrl } from "../pg/test-store.ts";

// The scheduler's wake-up on PostgreSQL (src/db/open-store.ts): an enqueue committed by one
// process — another instance, or a CLI command such as `dlq retrigger` — wakes every server's
// scheduler through LISTEN/NOTIFY, and a process's own notification wakes it once, not twice.

describe.skipIf(!testPostgresUrl())("deliveries-enqueued wake-ups across processes (LISTEN/NOTIFY)", () => {
  const channel = `parley_test_${process.pid}_${Date.now()}`;
  let server: SQL;
  let cli: SQL;

  beforeAll(() => {
    const url = testPostgresUrl() as string;
    server = new SQL({ url, max: 2 });
    cli = new SQL({ url, max: 1 });
  });
  afterAll(async () => {
    await server.close();
    await cli.close();
  });

  /** Waits (bounded) until `done()` holds. */
  async function until(done: () => boolean): Promise<void> {
    for (let i = 0; i < 500 && !done(); i++) await Bun.sleep(10);
    expect(done()).toBe(true);
  }

  test("another process's notify wakes the subscribed scheduler; its own notify wakes it exactly once", async () => {
    const serverSignal = createClusterSignal(server, channel);
    const cliSignal = createClusterSignal(cli, channel);
    let wakes = 0;
    const unsubscribe = serverSignal.subscribe(() => wakes++);
    // Every notification on the channel, as the server's listening connection receives them,
    // in order: the signal's own handler sees the same ones on the same connection.
    const seen: string[] = [];
    const observer = await server.listen(channel, (payload) => seen.push(payload));
    await serverSignal.whenListening();

    cliSignal.notify(); // the CLI's enqueue, after its commit
    await until(() => wakes === 1);
    expect(seen).toHaveLength(1);

    serverSignal.notify(); // this process's own enqueue: woken at once, locally…
    expect(wakes).toBe(2);
    await serverSignal.flush();
    cliSignal.notify();
    await cliSignal.flush();
    // …and its echo, which arrives before the CLI's second notification, is ignored.
    await until(() => seen.length === 3);
    expect(wakes).toBe(3);

    await observer.unlisten();
    unsubscribe();
    await cliSignal.close();
    await serverSignal.close();
  });
});
