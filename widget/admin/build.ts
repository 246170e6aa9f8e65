import { join } from "node:path";

/**
 * Bundles widget/admin/src into one minified IIFE and returns its code, exactly like
 * widget/build.ts does for the chat widget: src/http/routes/admin-page.ts imports this
 * `with { type: "macro" }`, so the compiled binary carries the admin script as a string.
 * Bun.build may not run inside a macro (the bundler would wait on itself): a child process does.
 */
export function buildAdmin(): string {
  const entry = join(import.meta.dir, "src/index.ts");
  const result = Bun.spawnSync([process.execPath, "build", entry, "--minify", "--format=iife", "--target=browser"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const code = result.stdout.toString();
  if (result.exitCode !== 0 || !code.trim()) throw new Error(`admin build failed: ${result.stderr.toString()}`);
  return code;
}

if (import.meta.main) {
  const code = buildAdmin();
  console.log(`admin.js: ${code.length} bytes, ${Bun.gzipSync(code).length} bytes gzipped`);
}
