import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Scalar's API reference viewer, the standalone browser build from the `@scalar/api-reference`
 * package. Imported as a macro by routes/docs.ts, so the bundler inlines the file's text and the
 * binary serves /docs with no CDN and no file on disk. The package's `exports` map hides
 * dist/browser, hence the path from its main entry.
 */
export function readApiReferenceBundle(): string {
  const entry = Bun.resolveSync("@scalar/api-reference", import.meta.dir);
  return readFileSync(join(dirname(entry), "browser", "standalone.js"), "utf8");
}

/** The viewer's version, shown on the page and used to bust caches when the package changes. */
export function readApiReferenceVersion(): string {
  const entry = Bun.resolveSync("@scalar/api-reference", import.meta.dir);
  const manifest = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as { version: string };
  return manifest.version;
}
