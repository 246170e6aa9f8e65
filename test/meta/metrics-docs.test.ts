import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";

// Metric families; the docs also name tables and channels that start with parley_.
const METRIC_FAMILIES = /^parley_(?:http|webhook|ai|wal|log|tls)_/;

/** The source of the server, where every metric /metrics can serve is named (some through a helper). */
async function sourceText(): Promise<string> {
  const root = new URL("../../src/", import.meta.url).pathname;
  const files = [...new Bun.Glob("**/*.ts").scanSync(root)];
  return (await Promise.all(files.map((file) => Bun.file(`${root}${file}`).text()))).join("\n");
}

describe("metrics the docs name", () => {
  test("exist in the source of /metrics (a trailing * stands for any ending)", async () => {
    const source = await sourceText();
    const docs = new URL("../../docs/", import.meta.url);
    const missing: string[] = [];
    for (const file of readdirSync(docs).filter((name) => name.endsWith(".md"))) {
      const text = await Bun.file(new URL(file, docs)).text();
      for (const [, name = ""] of text.matchAll(/`(parley_[a-z_]+\*?)/g)) {
        if (!METRIC_FAMILIES.test(name)) continue;
        const pattern = name.endsWith("*") ? name.slice(0, -1) : new RegExp(`${name}(?![a-z_])`);
        if (typeof pattern === "string" ? !source.includes(pattern) : !pattern.test(source))
          missing.push(`${file}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
