import { X509Certificate, createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";

/** A certificate chain and its key as served, with what status, logs and metrics show of it. */
export interface CertificatePair {
  readonly cert: string;
  readonly key: string;
  readonly notBeforeMs: number;
  readonly notAfterMs: number;
  readonly subject: string;
  readonly issuer: string;
  readonly dnsNames: readonly string[];
  /** SHA-256 of the leaf: tells a renewed certificate from the one already served. */
  readonly fingerprint: string;
}

/** Why a pair cannot be served, in one line an operator can act on. */
export class CertificatePairError extends Error {
  override name = "CertificatePairError";
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function dnsNamesOf(leaf: X509Certificate): string[] {
  return (leaf.subjectAltName ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith("DNS:"))
    .map((entry) => entry.slice(4));
}

/**
 * Checks a PEM chain (leaf first) and its key before they are served: both parse, the key is the
 * leaf's, and the leaf is not expired at `nowMs`. Serving a mismatched pair would fail every
 * handshake, so it is refused here instead.
 */
export function parseCertificatePair(cert: string, key: string, nowMs: number): CertificatePair {
  const blocks = cert.match(PEM_CERTIFICATE);
  if (!blocks?.[0])
    throw new CertificatePairError("the certificate file holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(blocks[0]);
  } catch (error) {
    throw new CertificatePairError(
      `the certificate cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new CertificatePairError("the key file holds no readable unencrypted PEM private key");
  }
  if (!leaf.checkPrivateKey(privateKey))
    throw new CertificatePairError(`the key does not belong to the certificate (${leaf.subject.replace(/\n/g, ", ")})`);
  const notAfterMs = Date.parse(leaf.validTo);
  if (notAfterMs <= nowMs)
    throw new CertificatePairError(`the certificate expired on ${new Date(notAfterMs).toISOString()}`);
  return {
    cert: `${blocks.join("\n")}\n`,
    key,
    notBeforeMs: Date.parse(leaf.validFrom),
    notAfterMs,
    subject: leaf.subject.replace(/\n/g, ", "),
    issuer: leaf.issuer.replace(/\n/g, ", "),
    dnsNames: dnsNamesOf(leaf),
    fingerprint: leaf.fingerprint256,
  };
}

/** Reads and checks the operator's own files (PARLEY_TLS_CERT, PARLEY_TLS_KEY). */
export function readCertificatePair(certPath: string, keyPath: string, nowMs: number): CertificatePair {
  const read = (path: string, what: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CertificatePairError(
        `cannot read the ${what} ${path}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : String(error)}`,
      );
    }
  };
  const cert = read(certPath, "certificate file");
  const key = read(keyPath, "key file");
  try {
    return parseCertificatePair(cert, key, nowMs);
  } catch (error) {
    if (error instanceof CertificatePairError)
      throw new CertificatePairError(`${certPath} + ${keyPath}: ${error.message}`);
    throw error;
  }
}
