import { join } from "node:path";
import { bundleBrowserScript } from "../build.ts";

/** The admin page's script (widget/admin/src), served at /admin.js; built like the widget. */
export const buildAdmin = (): string => bundleBrowserScript(join(import.meta.dir, "src/index.ts"), "admin");

if (import.meta.main) {
  const code = buildAdmin();
  console.log(`admin.js: ${code.length} bytes, ${Bun.gzipSync(code).length} bytes gzipped`);
}
