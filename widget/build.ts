import { join } from "node:path";

/**
 * Bundles a browser entry point into one minified IIFE and returns its code. The HTTP routes
 * import the builders below `with { type: "macro" }`, so Bun runs them at transpile time and
 * inlines the string: the compiled binary carries the scripts, and `bun test` / `bun
 * src/main.ts` need no build step. Bun.build may not be called from a macro (the bundler would
 * wait on itself), so this runs the same Bun's CLI in a child process.
 */
export function bundleBrowserScript(entry: string, label: string): string {
  const result = Bun.spawnSync([process.execPath, "build", entry, "--minify", "--format=iife", "--target=browser"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const code = result.stdout.toString();
  if (result.exitCode !== 0 || !code.trim()) throw new Error(`${label} build failed: ${result.stderr.toString()}`);
  return code;
}

/** The chat widget (widget/src), served at /widget.js. */
export const buildWidget = (): string => bundleBrowserScript(join(import.meta.dir, "src/index.ts"), "widget");

if (import.meta.main) {
  const code = buildWidget();
  console.log(`widget: ${code.length} bytes, ${Bun.gzipSync(code).length} bytes gzipped`);
}
