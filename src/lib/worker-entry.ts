/**
 * What to hand `new Worker()` for a worker entry point, run from source and from the compiled
 * binary alike. From source (`bun src/main.ts`, tests, benches) it is `fromSource`, the file next
 * to the caller. In the binary (`Bun.main` is under `/$bunfs/`) a URL next to the caller names
 * the build machine's source file (`--bytecode` keeps `import.meta.url` as it was), which Bun
 * then looks for on disk and, on any other machine, does not find; every entry point of
 * package.json's build script is embedded as `/$bunfs/root/<its path below src/>.js`.
 */
export function workerEntry(pathBelowSrc: string, fromSource: URL): string {
  return Bun.main.startsWith("/$bunfs/") ? `/$bunfs/root/${pathBelowSrc}.js` : fromSource.href;
}
