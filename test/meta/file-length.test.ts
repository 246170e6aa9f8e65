import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

// Small files with plain names: a source file past 300 lines is split along a seam of its own.

const ROOT = resolve(import.meta.dir, "../..");
const MAX_LINES = 300;
const SOURCE = /\.(ts|tsx|js|mjs|css|html)$/;

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

  test("no file under src/ or widget/ passes 300 lines", () => {
    const long = [...lengths]
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([path, lines]) => `${path}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
