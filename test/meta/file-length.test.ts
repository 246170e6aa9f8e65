import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

// Small files with plain names: a source file past 300 lines is split along a seam of its own.

const ROOT = resolve(import.meta.dir, "../..");
const MAX_LINES = 300;
const SOURCE = /\.(ts|tsx|js|mjs|css|html)$/;

/**
 * Files allowed past the limit for now. Only ever shrinks: each entry is a file being rewritten
 * elsewhere, and the test below fails once it is back under the limit, so it leaves the list.
 */
const ALLOWED_LONG: readonly string[] = [
  // Its queue operations are being rewritten; the rewrite brings it under the limit.
  "src/db/postgres/delivery-queue.ts",
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Lines as an editor numbers them: a final newline does not start another. */
const lineCount = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

const files = ["src", "widget"].flatMap((dir) => sourceFiles(join(ROOT, dir)));
const lengths = new Map(files.map((path) => [relative(ROOT, path), lineCount(readFileSync(path, "utf8"))]));

describe("source files stay under 300 lines", () => {
  test("lines are counted as an editor numbers them", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("one\n")).toBe(1);
    expect(lineCount("one\ntwo")).toBe(2);
    expect(lineCount("a\n".repeat(MAX_LINES + 1))).toBe(MAX_LINES + 1);
  });

  test("the scan sees src/ and widget/", () => {
    expect([...lengths.keys()].filter((path) => path.startsWith("widget/")).length).toBeGreaterThan(10);
    expect(lengths.size).toBeGreaterThan(300);
  });

  test("no file under src/ or widget/ passes 300 lines, except the allow-list", () => {
    const long = [...lengths]
      .filter(([path, lines]) => lines > MAX_LINES && !ALLOWED_LONG.includes(path))
      .map(([path, lines]) => `${path}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  test("every allow-listed file still exists and is still past the limit (else it leaves the list)", () => {
    const stale = ALLOWED_LONG.filter((path) => !existsSync(join(ROOT, path)) || (lengths.get(path) ?? 0) <= MAX_LINES);
    expect(stale).toEqual([]);
  });
});
