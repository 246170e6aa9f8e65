import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { cli } from "./cli-helpers.ts";

// @sqlite-only: runs the CLI with --db on a SQLite file; the same commands over PostgreSQL are in test/cli/postgres.test.ts

const dir = mkdtempSync(join(tmpdir(), "parley-cli-name-"));
const db = join(dir, "cli.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const storedName = (email: string) => {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite
      .query<{ display_name: string | null }, [string]>("SELECT display_name FROM users WHERE email = ?")
      .get(email)?.display_name;
  } finally {
    sqlite.close();
  }
};

describe("parley user --name", () => {
  let tenantId = "";

  test("user create --name stores the display name, trimmed", async () => {
    tenantId = JSON.parse(
      (await cli(["tenant", "create", "--name", "Smile Dental", "--json", "--db", db])).out,
    ).tenant_id;
    const created = await cli(
      ["user", "create", "--email", "ana@smile.example", "--tenant", tenantId, "--name", " Ana Lima ", "--db", db],
      { stdin: "a-long-password\n" },
    );
    expect(created.code).toBe(0);
    expect(storedName("ana@smile.example")).toBe("Ana Lima");
    const unnamed = await cli(["user", "create", "--email", "bea@smile.example", "--tenant", tenantId, "--db", db], {
      stdin: "a-long-password\n",
    });
    expect(unnamed.code).toBe(0);
    expect(storedName("bea@smile.example")).toBeNull();
  });

  test("user name --name renames and --clear clears", async () => {
    const renamed = await cli(["user", "name", "--email", "ANA@smile.example", "--name", "Ana", "--json", "--db", db]);
    expect(renamed.code).toBe(0);
    expect(JSON.parse(renamed.out)).toEqual({ user_id: expect.stringMatching(/^usr_/), display_name: "Ana" });
    expect(storedName("ana@smile.example")).toBe("Ana");
    const cleared = await cli(["user", "name", "--email", "ana@smile.example", "--clear", "--db", db]);
    expect(cleared.code).toBe(0);
    expect(cleared.out).toContain("cleared");
    expect(storedName("ana@smile.example")).toBeNull();
  });

  test("a bad name is refused with exit 2 and nothing changes; an unknown e-mail is exit 1", async () => {
    await cli(["user", "name", "--email", "ana@smile.example", "--name", "Ana", "--db", db]);
    const tooLong = await cli(["user", "name", "--email", "ana@smile.example", "--name", "x".repeat(61), "--db", db]);
    expect(tooLong.code).toBe(2);
    expect(tooLong.err).toContain("display_name");
    expect((await cli(["user", "name", "--email", "ana@smile.example", "--name", "   ", "--db", db])).code).toBe(2);
    expect((await cli(["user", "name", "--email", "ana@smile.example", "--name", "Ana\tLima", "--db", db])).code).toBe(
      2,
    );
    expect(storedName("ana@smile.example")).toBe("Ana");
    const badCreate = await cli(
      ["user", "create", "--email", "cid@smile.example", "--tenant", tenantId, "--name", "\u0007", "--db", db],
      { stdin: "a-long-password\n" },
    );
    expect(badCreate.code).toBe(2);
    expect(storedName("cid@smile.example")).toBeUndefined();
    const missing = await cli(["user", "name", "--email", "nobody@smile.example", "--name", "X", "--db", db]);
    expect(missing.code).toBe(1);
  });

  test("user name needs exactly one of --name and --clear", async () => {
    expect((await cli(["user", "name", "--email", "ana@smile.example", "--db", db])).code).toBe(2);
    expect(
      (await cli(["user", "name", "--email", "ana@smile.example", "--name", "A", "--clear", "--db", db])).code,
    ).toBe(2);
    const help = await cli(["user", "--help"]);
    expect(help.out).toContain("parley user name --email EMAIL (--name NAME | --clear)");
  });
});
