import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { cli } from "./cli-helpers.ts";

// @sqlite-only: runs the CLI with --db on a SQLite file and reads the rows it left

const dir = mkdtempSync(join(tmpdir(), "parley-cli-delete-"));
const db = join(dir, "cli.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rowsOf = (email: string) => {
  const sqlite = new Database(db, { readonly: true });
  try {
    const user = sqlite.query<{ id: string }, [string]>("SELECT id FROM users WHERE email = ?").get(email);
    const count = (table: string) =>
      sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).get(user?.id ?? "")
        ?.n ?? 0;
    return { user: user !== null, memberships: count("memberships") };
  } finally {
    sqlite.close();
  }
};

describe("parley user delete", () => {
  test("deletes the account from every tenant; an unknown e-mail fails with one line", async () => {
    const tenantId = JSON.parse(
      (await cli(["tenant", "create", "--name", "Front Desk", "--json", "--db", db])).out,
    ).tenant_id;
    expect(
      (
        await cli(
          ["user", "create", "--email", "sam@desk.example", "--tenant", tenantId, "--role", "agent", "--db", db],
          { stdin: "a-long-password\n" },
        )
      ).code,
    ).toBe(0);
    expect(rowsOf("sam@desk.example")).toEqual({ user: true, memberships: 1 });

    const deleted = await cli(["user", "delete", "--email", "SAM@desk.example", "--json", "--db", db]);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.out)).toEqual({
      user_id: expect.stringMatching(/^usr_/),
      tenant_ids: [tenantId],
      deleted: true,
    });
    expect(rowsOf("sam@desk.example")).toEqual({ user: false, memberships: 0 });

    const again = await cli(["user", "delete", "--email", "sam@desk.example", "--db", db]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("No such user");
  });
});
