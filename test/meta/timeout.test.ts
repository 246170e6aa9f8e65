import { expect, test } from "bun:test";

// Bun's default per-test limit, which applies when the suite's timeout is not read.
const BUN_DEFAULT_TIMEOUT_MS = 5_000;

test("a test may run past Bun's 5 s default: `npm test` passes a --timeout that Bun reads", async () => {
  // Real time on purpose: this is the runner's own limit, not product behaviour. Run without
  // `--timeout` (a `[test] timeout` in bunfig.toml or a preloaded setDefaultTimeout do not
  // reach every file in Bun 1.4.5), Bun fails this test after 5 s.
  const started = performance.now();
  await Bun.sleep(BUN_DEFAULT_TIMEOUT_MS + 300);
  expect(performance.now() - started).toBeGreaterThan(BUN_DEFAULT_TIMEOUT_MS);
});
