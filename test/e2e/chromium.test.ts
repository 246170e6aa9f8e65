import { expect, test } from "bun:test";
import { browserSuiteMode } from "./chromium.ts";

test("browser suites run when Chromium is installed, skip without it on a developer machine, and fail without it in CI", () => {
  expect(browserSuiteMode(true, true)).toBe("run");
  expect(browserSuiteMode(true, false)).toBe("run");
  expect(browserSuiteMode(false, false)).toBe("skip");
  expect(browserSuiteMode(false, true)).toBe("fail");
});
