import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, seedTenant, TEST_PASSWORD, type TestContext } from "../helpers.ts";

/**
 * Wrong passwords are counted per account as well as per address: many addresses guessing one
 * account are paused together, for a window short enough that the owner is never locked out long.
 */
let context: TestContext;
afterEach(() => context?.close());

// Behind a trusted proxy each forwarded address is a client of its own, as an attacker with many addresses would be.
let nextAddress = 0;
const login = (email: string, password: string) =>
  context.request("POST", "/api/v1/auth/token", {
    body: { email, password },
    headers: { "x-forwarded-for": `203.0.113.${nextAddress++ % 250}` },
  });

async function guess(email: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await login(email, `wrong-${i}`)).status);
  return statuses;
}

describe("wrong passwords per account", () => {
  test("after 20 wrong passwords from 20 addresses, the account pauses even for the right password", async () => {
    context = buildTestApp({ trustProxy: true });
    const { email } = await seedTenant(context.deps, "Guarded");
    expect(await guess(email, 20)).toEqual(Array(20).fill(401));
    const paused = await login(email, TEST_PASSWORD);
    expect(paused.status).toBe(429);
    expect(paused.headers.get("retry-after")).toBe("900");
    const body = (await paused.json()) as { error: string; message: string };
    expect(body.error).toBe("rate_limited");
    expect(body.message).toStartWith("Too many wrong passwords for this account");
  });

  test("an e-mail without an account gets exactly the same answers", async () => {
    context = buildTestApp({ trustProxy: true });
    const statuses = await guess("nobody@nowhere.test", 21);
    expect(statuses).toEqual([...Array(20).fill(401), 429]);
    const paused = await login("Nobody@Nowhere.test ", "x");
    expect(paused.status).toBe(429);
    expect(((await paused.json()) as { message: string }).message).toStartWith(
      "Too many wrong passwords for this account",
    );
  });

  test("the pause ends when the oldest failure leaves the window, and other accounts are never paused", async () => {
    context = buildTestApp({ trustProxy: true });
    const guarded = await seedTenant(context.deps, "Guarded");
    const other = await seedTenant(context.deps, "Other");
    await guess(guarded.email, 20);
    expect((await login(other.email, TEST_PASSWORD)).status).toBe(200);
    context.clock.advance(15 * 60_000 - 1);
    expect((await login(guarded.email, TEST_PASSWORD)).status).toBe(429);
    context.clock.advance(1);
    expect((await login(guarded.email, TEST_PASSWORD)).status).toBe(200);
  });

  test("good logins are not counted", async () => {
    context = buildTestApp({ trustProxy: true });
    const { email } = await seedTenant(context.deps, "Busy");
    for (let i = 0; i < 25; i++) expect((await login(email, TEST_PASSWORD)).status).toBe(200);
  });

  test("the limit and the window are configurable", async () => {
    context = buildTestApp({ trustProxy: true, loginFailureLimit: 3, loginFailureWindowMs: 60_000 });
    const { email } = await seedTenant(context.deps, "Strict");
    expect(await guess(email, 4)).toEqual([401, 401, 401, 429]);
    expect((await login(email, TEST_PASSWORD)).headers.get("retry-after")).toBe("60");
  });
});
