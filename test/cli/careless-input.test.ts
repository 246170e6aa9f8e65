import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "./cli-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-cli-careless-"));
const db = join(dir, "careless.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a careless user's command line", () => {
  test("an unknown option is named in one plain sentence, without parseArgs' advice about --", async () => {
    const result = await cli(["tenant", "list", "--colour", "--db", db]);
    expect(result.code).toBe(2);
    expect(result.err).toBe("parley: unknown option --colour (see: parley tenant --help)");
  });

  test("a flag without its value says so, also when the next word starts with a dash", async () => {
    const missing = await cli(["tenant", "create", "--name"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("parley: --name needs a value (see: parley tenant --help)");
    const dashed = await cli(["dlq", "list", "--limit", "-5", "--db", db]);
    expect(dashed.code).toBe(2);
    expect(dashed.err).toBe(
      "parley: --limit needs a value; write --limit=VALUE for one that starts with - (see: parley dlq --help)",
    );
  });

  test("a value given to a switch is refused by name", async () => {
    const result = await cli(["dlq", "list", "--json=yes", "--db", db]);
    expect(result.code).toBe(2);
    expect(result.err).toBe("parley: --json takes no value (see: parley dlq --help)");
  });

  test("a backup into a folder that does not exist names the folder, not a temporary file", async () => {
    expect((await cli(["migrate", "--db", db])).code).toBe(0);
    const target = join(dir, "no-such-folder", "parley.db");
    const result = await cli(["backup", target, "--db", db]);
    expect(result.code).toBe(1);
    expect(result.err).toBe(`parley: cannot write ${target}: the folder ${join(dir, "no-such-folder")} does not exist`);
  });

  test("serve --demo that cannot listen still prints the demo's login and key, made on this run only", async () => {
    const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
    try {
      const args = ["serve", "--demo", "--host", "127.0.0.1", "--port", String(taken.port)];
      const first = await cli([...args, "--db", join(dir, "demo.db")]);
      expect(first.code).toBe(1);
      expect(first.err).toContain(`cannot listen on 127.0.0.1:${taken.port}`);
      expect(first.out).toMatch(/^ {2}login {4}demo@parley\.local \/ \S{16}$/m);
      expect(first.out).toMatch(/^ {2}API key {2}pk_\S+$/m);
    } finally {
      taken.stop(true);
    }
  });

  test("user --help says which role user create gives without --role, unlike the API's default", async () => {
    const help = await cli(["user", "--help"]);
    expect(help.out).toContain("--role defaults to owner");
    expect(help.out).toContain("POST /api/v1/users defaults to agent");
  });

  test("a mistyped --db is refused by name instead of becoming a new empty database", async () => {
    const typo = join(dir, "parly.db");
    for (const args of [
      ["tenant", "list"],
      ["dlq", "list"],
      ["apikey", "list", "--tenant", "ten_x"],
    ]) {
      const result = await cli([...args, "--db", typo]);
      expect(result.code).toBe(1);
      expect(result.err).toBe(
        `parley: no database at ${typo}; check --db or PARLEY_DB (parley serve, parley migrate or parley tenant create makes one)`,
      );
      expect(existsSync(typo)).toBe(false);
    }
    // Setting up may start with a tenant, before the first serve.
    expect((await cli(["tenant", "create", "--name", "First", "--db", typo])).code).toBe(0);
  });
});
