import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SECTOR_SLUGS } from "../../src/chat/engine/sector-templates.ts";
import { cli } from "./cli-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-cli-loose-"));
const db = join(dir, "loose.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("CLI loose ends", () => {
  test("a command without its action is a usage error and creates no database", async () => {
    for (const command of ["tenant", "user", "apikey", "dlq", "lead", "session"]) {
      const missing = join(dir, `never-${command}.db`);
      const result = await cli([command, "--db", missing]);
      expect(result.code).toBe(2);
      expect(result.err).toContain("missing action");
      const typo = await cli([command, "lsit", "--db", missing]);
      expect(typo.code).toBe(2);
      expect(existsSync(missing)).toBe(false);
    }
  });

  test("the new commands are listed in --help and have their own help", async () => {
    const main = await cli(["--help"]);
    for (const command of ["lead", "session", "backup", "restore"]) {
      expect(main.out).toContain(command);
      const own = await cli([command, "--help"]);
      expect(own.code).toBe(0);
      expect(own.out).toContain(`parley ${command}`);
    }
    expect(main.out).toContain("PARLEY_EVENT_RETENTION");
  });

  test("dlq list and dlq retrigger --all with an unknown --tenant exit 1 instead of reporting nothing", async () => {
    expect((await cli(["migrate", "--db", db])).code).toBe(0);
    const retrigger = await cli(["dlq", "retrigger", "--all", "--tenant", "ten_0000000000unknown", "--db", db]);
    expect(retrigger.code).toBe(1);
    expect(retrigger.err).toContain("No such tenant");
    expect(retrigger.out).toBe("");
    expect((await cli(["dlq", "list", "--tenant", "ten_0000000000unknown", "--db", db])).code).toBe(1);
    expect((await cli(["dlq", "retrigger", "--all", "--db", db])).code).toBe(0); // every tenant: nothing to do is fine
  });

  test("global flags are accepted before the command too", async () => {
    const created = await cli(["--db", db, "--json", "tenant", "create", "--name", "Before"]);
    expect(created.code).toBe(0);
    const tenant = JSON.parse(created.out);
    const listed = await cli([`--db=${db}`, "tenant", "list", "--json"]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out).map((row: { tenant_id: string }) => row.tenant_id)).toContain(tenant.tenant_id);
    expect((await cli(["--db", db, "--help"])).code).toBe(0);
  });

  test("--sector accepts only a known sector, and tenant --help lists them", async () => {
    const unknown = await cli(["tenant", "create", "--name", "X", "--sector", "space-tourism", "--db", db]);
    expect(unknown.code).toBe(2);
    for (const sector of SECTOR_SLUGS) expect(unknown.err).toContain(sector);
    const help = await cli(["tenant", "--help"]);
    for (const sector of SECTOR_SLUGS) expect(help.out).toContain(sector);
    const known = await cli(["tenant", "create", "--name", "Y", "--sector", "car-service", "--json", "--db", db]);
    expect(known.code).toBe(0);
    expect(JSON.parse(known.out).sector).toBe("car-service");
  });

  test("--json prints the API's field names and ISO 8601 times", async () => {
    const tenant = JSON.parse((await cli(["tenant", "create", "--name", "Json", "--json", "--db", db])).out);
    expect(Object.keys(tenant).sort()).toEqual([
      "allowed_origins",
      "chatbot_id",
      "created_at",
      "name",
      "plan",
      "sector",
      "tenant_id",
    ]);
    expect(new Date(tenant.created_at).toISOString()).toBe(tenant.created_at);
    const key = JSON.parse((await cli(["apikey", "create", "--tenant", tenant.tenant_id, "--json", "--db", db])).out);
    expect(key).toMatchObject({
      key_id: expect.stringMatching(/^key_/),
      tenant_id: tenant.tenant_id,
      last_used_at: null,
      revoked_at: null,
    });
    expect(new Date(key.created_at).toISOString()).toBe(key.created_at);
    const plan = JSON.parse((await cli(["tenant", "plan", tenant.tenant_id, "pro", "--json", "--db", db])).out);
    expect(plan).toEqual({ tenant_id: tenant.tenant_id, plan: "pro", from_plan: "free", change: "upgrade" });
    const migrate = JSON.parse((await cli(["migrate", "--json", "--db", db])).out);
    expect(migrate).toEqual({ applied: [], already_applied: expect.any(Number) });
  });
});
