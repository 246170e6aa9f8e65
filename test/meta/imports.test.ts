import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// Imports run downward: lib at the bottom, then config and the store (db), then the domain,
// then the doors (http, cli) and main. A test rather than a lint rule, so the layers are one table.

const SRC = resolve(import.meta.dir, "../../src");

/** What each part of src/ may import besides itself. Domain parts may import each other (below). */
const BOTTOM = ["lib"];
const STORE = [...BOTTOM, "config", "db"];
const DOMAIN_PARTS = [
  "auth",
  "tenants",
  "plans",
  "billing",
  "webhooks",
  "chat",
  "assistant",
  "knowledge",
  "analytics",
  "integrations",
  "scheduler",
  "test-set",
  "frontdesk",
];
const BELOW_DOORS = [...STORE, "deps", "types.d", ...DOMAIN_PARTS];
const MAY_IMPORT: Record<string, readonly string[]> = {
  lib: BOTTOM,
  config: BOTTOM,
  db: ["lib", "config"],
  // The bundle of ports every verb receives; it names domain types only (`import type`).
  deps: BELOW_DOORS,
  ...Object.fromEntries(DOMAIN_PARTS.map((part) => [part, BELOW_DOORS])),
  http: BELOW_DOORS,
  cli: [...BELOW_DOORS, "http"],
  main: [...BELOW_DOORS, "http", "cli"],
};

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The part of src/ a file belongs to: its top folder, or its own name for a file at the top. */
const partOf = (path: string): string => {
  const [first, ...rest] = relative(SRC, path).split("/");
  return rest.length === 0 ? (first ?? "").replace(/\.ts$/, "") : (first ?? "");
};

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^"';]*?\bfrom\s+"(\.[^"]+)"|\bimport\(\s*"(\.[^"]+)"\s*\)/gm;

function importsOf(path: string): Import[] {
  const found: Import[] = [];
  for (const match of readFileSync(path, "utf8").matchAll(IMPORT)) {
    const target = resolve(dirname(path), match[3] ?? match[4] ?? "");
    if (!target.startsWith(`${SRC}/`)) continue; // migrations, package.json
    found.push({ from: path, to: target, typeOnly: match[2] !== undefined });
  }
  return found;
}

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);
const crossing = imports.filter((edge) => partOf(edge.from) !== partOf(edge.to));
const describeEdge = (edge: Import) => `${relative(SRC, edge.from)} -> ${relative(SRC, edge.to)}`;

describe("imports run downward", () => {
  test("the scan sees the tree: every part of src/ is in the layer table", () => {
    expect(files.length).toBeGreaterThan(100);
    const unknown = [...new Set(files.map(partOf))].filter((part) => !(part in MAY_IMPORT) && part !== "types.d");
    expect(unknown).toEqual([]);
  });

  test("no part imports from a part above it (lib knows no domain, db depends on nothing of the domain)", () => {
    const upward = crossing.filter((edge) => !(MAY_IMPORT[partOf(edge.from)] ?? []).includes(partOf(edge.to)));
    expect(upward.map(describeEdge)).toEqual([]);
  });

  test("deps.ts names domain types only, never domain code", () => {
    const domain = crossing.filter((edge) => partOf(edge.from) === "deps" && DOMAIN_PARTS.includes(partOf(edge.to)));
    expect(domain.length).toBeGreaterThan(0);
    expect(domain.filter((edge) => !edge.typeOnly).map(describeEdge)).toEqual([]);
  });

  test("domain parts form no cycle (the assistant reaches chat through a port; plans sit below billing and webhooks)", () => {
    const graph = new Map<string, Set<string>>();
    for (const edge of crossing) {
      const from = partOf(edge.from);
      const to = partOf(edge.to);
      if (!DOMAIN_PARTS.includes(from) || !DOMAIN_PARTS.includes(to)) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
    const reaches = (start: string, goal: string, seen = new Set<string>()): boolean =>
      [...(graph.get(start) ?? [])].some(
        (next) => next === goal || (!seen.has(next) && seen.add(next) && reaches(next, goal, seen)),
      );
    const cycles = [...graph].flatMap(([from, targets]) =>
      [...targets].filter((to) => reaches(to, from)).map((to) => `${from} -> ${to}`),
    );
    expect(cycles).toEqual([]);
  });

  test("the rule engine (src/chat/engine) imports only itself and src/lib: no store, HTTP, scheduler, webhooks or chat verbs", () => {
    const engine = `${SRC}/chat/engine/`;
    const fromEngine = imports.filter((edge) => edge.from.startsWith(engine));
    expect(fromEngine.length).toBeGreaterThan(50);
    const outside = fromEngine.filter((edge) => !edge.to.startsWith(engine) && !edge.to.startsWith(`${SRC}/lib/`));
    expect(outside.map(describeEdge)).toEqual([]);
  });

  test("HTTP responses are built only in src/http", () => {
    const outside = files.filter(
      (path) => partOf(path) !== "http" && /\bnew Response\(/.test(readFileSync(path, "utf8")),
    );
    expect(outside.map((path) => relative(SRC, path))).toEqual([]);
  });
});
