import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { createSandbox, stopProcess, type Sandbox } from "./binary.ts";
import {
  openTestDatabase,
  postgresSource,
  spawnServer,
  type ServerChild,
  type TestDatabase,
} from "./cluster-helpers.ts";
import { MESSAGE_BLOCK } from "../../src/db/postgres/usage.ts";

/**
 * `parley serve` on PostgreSQL stopped with SIGTERM gives back the messages it counted ahead on an
 * unlimited plan (docs/scale-out.md, blocks): GET /usage then shows the messages accepted.
 * PostgreSQL as for postgres-cluster.test.ts: PARLEY_TEST_DB, else a throwaway cluster.
 */

const source = postgresSource();

describe.skipIf(source.kind === "none")("a PostgreSQL instance that shuts down", () => {
  let database: TestDatabase | null = null;
  let sandbox: Sandbox | null = null;
  const started: ServerChild[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    sandbox = createSandbox({ PARLEY_DB: database.url });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(started.map((child) => stopProcess(child.process)));
    await database?.drop().catch((error) => console.error(`dropping the test database failed: ${error}`));
    sandbox?.cleanup();
  });

  const cli = (args: string[]) => {
    const result = sandbox!.run([...args, "--db", database!.url]);
    if (result.code !== 0)
      throw new Error(`parley ${args.join(" ")} exited ${result.code}: ${result.err}${result.out}`);
    return result.out;
  };

  test("on SIGTERM it gives back its held block: the usage row equals the messages sent", async () => {
    const env = { PARLEY_RATE_LIMITS: "off", PARLEY_LOG_LEVEL: "error" };
    const server = await spawnServer(sandbox!, "instance", 0, env);
    started.push(server);
    const tenantId = JSON.parse(cli(["tenant", "create", "--name", "Busy Clinic", "--json"])).tenant_id as string;
    cli(["tenant", "plan", tenantId, "business"]); // no monthly quota: counted in blocks
    const apiKey = JSON.parse(cli(["apikey", "create", "--tenant", tenantId, "--json"])).key as string;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.baseUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const visitor = (await (await post("/api/v1/widget/session", { tenant_id: tenantId })).json()) as {
      access_token: string;
      session_id: string;
    };
    const sent = 3;
    for (let i = 0; i < sent; i++) {
      const answer = await post(
        "/api/v1/chatbot/message",
        { tenant_id: tenantId, session_id: visitor.session_id, message: "What are your opening hours?" },
        { authorization: `Bearer ${visitor.access_token}` },
      );
      expect(answer.status).toBe(200);
    }
    const usage = async (baseUrl: string) =>
      (
        (await (await fetch(`${baseUrl}/api/v1/usage`, { headers: { "x-api-key": apiKey } })).json()) as {
          used: number;
        }
      ).used;
    expect(await usage(server.baseUrl)).toBe(MESSAGE_BLOCK);

    await stopProcess(server.process);
    expect(server.process.exitCode).toBe(0);
    const sql = new SQL({ url: database!.url, max: 1 });
    try {
      const rows = await sql`SELECT messages FROM usage_counters WHERE tenant_id = ${tenantId}`;
      expect(rows.map((row: { messages: number }) => Number(row.messages))).toEqual([sent]);
    } finally {
      await sql.close();
    }
    const restarted = await spawnServer(sandbox!, "restarted", 0, env);
    started.push(restarted);
    expect(await usage(restarted.baseUrl)).toBe(sent);
  }, 120_000);
});
