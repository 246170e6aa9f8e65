import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "./cli-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-cli-"));
const db = join(dir, "cli.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("parley CLI", () => {
  test("--help lists every command and --version prints the version", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["serve", "migrate", "tenant", "user", "apikey"]) expect(help.out).toContain(command);
    expect((await cli(["--version"])).out).toMatch(/^parley \d+\.\d+\.\d+/);
  });

  test("each command has its own --help", async () => {
    for (const command of ["serve", "migrate", "tenant", "user", "apikey"]) {
      const help = await cli([command, "--help"]);
      expect(help.code).toBe(0);
      expect(help.out).toContain(`parley ${command}`);
    }
  });

  test("an unknown command, action or flag is a usage error: exit 2, one line on stderr", async () => {
    const unknown = await cli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err.split("\n")).toHaveLength(1);
    expect((await cli(["tenant", "explode", "--db", db])).code).toBe(2);
    const badFlag = await cli(["tenant", "list", "--db", db, "--colour"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.err).toContain("--colour");
  });

  test("a bad environment value stops with exit 2 and names the variable", async () => {
    const result = await cli(["migrate", "--db", db], { env: { PARLEY_RETRY_DELAYS: "soon" } });
    expect(result.code).toBe(2);
    expect(result.err).toContain("PARLEY_RETRY_DELAYS=soon");
  });

  test("migrate applies the schema once, then reports it up to date", async () => {
    const fresh = join(dir, "fresh.db");
    const first = await cli(["migrate", "--db", fresh, "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out).applied.length).toBeGreaterThan(0);
    const second = await cli(["migrate", "--db", fresh]);
    expect(second.out).toContain("up to date");
  });

  test("tenant, user and apikey commands work together against one database file", async () => {
    const created = await cli([
      "tenant",
      "create",
      "--name",
      "Smile Dental",
      "--sector",
      "dental-clinic",
      "--origins",
      "https://smile.example,https://www.smile.example/",
      "--json",
      "--db",
      db,
    ]);
    expect(created.code).toBe(0);
    const tenant = JSON.parse(created.out);
    expect(tenant.tenant_id).toMatch(/^ten_/);
    expect(tenant.chatbot_id).toMatch(/^bot_/);
    expect(tenant.allowed_origins).toEqual(["https://smile.example", "https://www.smile.example"]);
    expect(tenant.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);

    const listed = JSON.parse((await cli(["tenant", "list", "--json", "--db", db])).out);
    expect(listed.map((row: { tenant_id: string }) => row.tenant_id)).toContain(tenant.tenant_id);
    expect((await cli(["tenant", "list", "--db", db])).out).toContain("Smile Dental");

    const user = await cli(
      ["user", "create", "--email", "Ana@Smile.example", "--tenant", tenant.tenant_id, "--db", db, "--json"],
      { stdin: "a-long-password\n" },
    );
    expect(user.code).toBe(0);
    expect(JSON.parse(user.out)).toMatchObject({
      user_id: expect.stringMatching(/^usr_/),
      tenant_id: tenant.tenant_id,
      email: "ana@smile.example",
      role: "owner",
      created: true,
    });

    const again = await cli([
      "user",
      "create",
      "--email",
      "ana@smile.example",
      "--tenant",
      tenant.tenant_id,
      "--db",
      db,
    ]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("already a member");

    const key = JSON.parse(
      (await cli(["apikey", "create", "--tenant", tenant.tenant_id, "--name", "crm", "--json", "--db", db])).out,
    );
    expect(key.key).toMatch(/^pk_[0-9A-Za-z]{40}$/);
    const keys = await cli(["apikey", "list", "--tenant", tenant.tenant_id, "--db", db]);
    expect(keys.out).toContain(key.key_id);
    expect(keys.out).not.toContain(key.key);
    const revoked = await cli(["apikey", "revoke", key.key_id, "--db", db]);
    expect(revoked.code).toBe(0);
    expect(
      JSON.parse((await cli(["apikey", "list", "--tenant", tenant.tenant_id, "--json", "--db", db])).out)[0].revoked_at,
    ).toMatch(/^\d{4}-.*Z$/);

    const plan = await cli(["tenant", "plan", tenant.tenant_id, "pro", "--db", db]);
    expect(plan.out).toContain("free -> pro (upgrade)");
    expect((await cli(["tenant", "plan", tenant.tenant_id, "free", "--db", db])).out).toContain("(cancellation)");
  });

  test("a password comes from PARLEY_PASSWORD or stdin; none at all is a usage error", async () => {
    const tenant = JSON.parse((await cli(["tenant", "create", "--name", "P", "--json", "--db", db])).out);
    const fromEnv = await cli(["user", "create", "--email", "env@p.test", "--tenant", tenant.tenant_id, "--db", db], {
      env: { PARLEY_PASSWORD: "env-password-1" },
    });
    expect(fromEnv.code).toBe(0);
    const none = await cli(["user", "create", "--email", "none@p.test", "--tenant", tenant.tenant_id, "--db", db]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("PARLEY_PASSWORD");
    const short = await cli(["user", "create", "--email", "short@p.test", "--tenant", tenant.tenant_id, "--db", db], {
      stdin: "short\n",
    });
    expect(short.code).toBe(2);
    expect(short.err).toContain("password");
    const changed = await cli(["user", "password", "--email", "env@p.test", "--db", db], {
      stdin: "another-password\n",
    });
    expect(changed.code).toBe(0);
  });

  test("bad values are refused with a clear line", async () => {
    const badPlan = await cli(["tenant", "create", "--name", "X", "--plan", "gold", "--db", db]);
    expect(badPlan.code).toBe(2);
    expect(badPlan.err).toContain("plan: must be one of: free, starter, pro, business");
    expect((await cli(["tenant", "create", "--db", db])).err).toContain("missing --name");
    expect((await cli(["tenant", "create", "--name", "X", "--origins", "null", "--db", db])).code).toBe(2);
    const noTenant = await cli(["apikey", "create", "--tenant", "ten_missing", "--db", db]);
    expect(noTenant.code).toBe(1);
    expect(noTenant.err).toContain("No such tenant");
    expect(
      (await cli(["user", "create", "--email", "bad", "--tenant", "ten_x", "--db", db], { stdin: "password-123\n" }))
        .code,
    ).toBe(2);
    expect((await cli(["apikey", "revoke", "key_missing", "--db", db])).code).toBe(1);
  });
});
