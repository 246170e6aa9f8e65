import { describe, expect, test } from "bun:test";
import { ARGON2ID_PASSWORDS, passwordsOf } from "../../src/auth/password.ts";
import { buildDeps, CHEAP_TEST_PASSWORDS, closeDeps } from "../helpers.ts";

describe("password hashing", () => {
  test("deps without an injected hasher hash with argon2id at Bun's production cost (64 MiB, t=2)", async () => {
    expect(passwordsOf({})).toBe(ARGON2ID_PASSWORDS);
    const hash = await passwordsOf({}).hash("correct horse battery");
    expect(hash).toStartWith("$argon2id$");
    expect(hash).toContain("m=65536,t=2");
    expect(await ARGON2ID_PASSWORDS.verify("correct horse battery", hash)).toBe(true);
    expect(await ARGON2ID_PASSWORDS.verify("wrong horse battery", hash)).toBe(false);
  });

  test("test fixtures inject a cheap argon2id hasher whose hashes the production verifier still accepts", async () => {
    const deps = buildDeps();
    expect(passwordsOf(deps)).toBe(CHEAP_TEST_PASSWORDS);
    const hash = await CHEAP_TEST_PASSWORDS.hash("correct horse battery");
    expect(hash).toContain("m=8,t=1");
    expect(await ARGON2ID_PASSWORDS.verify("correct horse battery", hash)).toBe(true);
    closeDeps(deps);
  });

  test("the dummy hash for unknown e-mails is made once and never matches a real password", async () => {
    const first = await CHEAP_TEST_PASSWORDS.dummyHash();
    expect(await CHEAP_TEST_PASSWORDS.dummyHash()).toBe(first);
    expect(await CHEAP_TEST_PASSWORDS.verify("correct horse battery", first)).toBe(false);
  });
});
