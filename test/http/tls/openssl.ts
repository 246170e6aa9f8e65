import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface MadePair {
  readonly certPath: string;
  readonly keyPath: string;
  readonly cert: string;
  readonly key: string;
}

/** A directory for certificates a test makes, removed by `cleanup`. */
export function certificateDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "parley-tls-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A self-signed P-256 certificate for `localhost` (and `name` as its CN) made with openssl. */
export async function makeSelfSigned(dir: string, name: string, options: { days?: number } = {}): Promise<MadePair> {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  const args = [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    keyPath,
    "-out",
    certPath,
  ];
  const result = Bun.spawnSync(
    [
      "openssl",
      ...args,
      "-days",
      String(options.days ?? 30),
      "-subj",
      `/CN=${name}`,
      "-addext",
      "subjectAltName=DNS:localhost",
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (result.exitCode !== 0) throw new Error(`openssl failed: ${result.stderr.toString()}`);
  return { certPath, keyPath, cert: await Bun.file(certPath).text(), key: await Bun.file(keyPath).text() };
}
