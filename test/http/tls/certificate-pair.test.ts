import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CertificatePairError,
  parseCertificatePair,
  readCertificatePair,
} from "../../../src/http/tls/certificate-pair.ts";
import { certificateDir, makeSelfSigned, type MadePair } from "./openssl.ts";

const dir = certificateDir();
let alpha: MadePair;
let beta: MadePair;
beforeAll(async () => {
  alpha = await makeSelfSigned(dir.dir, "alpha.test");
  beta = await makeSelfSigned(dir.dir, "beta.test");
});
afterAll(() => dir.cleanup());

describe("parseCertificatePair", () => {
  test("a matching pair gives its names, issuer, expiry and fingerprint", () => {
    const pair = parseCertificatePair(alpha.cert, alpha.key, Date.now());
    expect(pair.subject).toBe("CN=alpha.test");
    expect(pair.issuer).toBe("CN=alpha.test");
    expect(pair.dnsNames).toEqual(["localhost"]);
    expect(pair.notAfterMs - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(pair.fingerprint).not.toBe(parseCertificatePair(beta.cert, beta.key, Date.now()).fingerprint);
  });

  test("a key of another certificate is refused with a line naming the certificate", () => {
    expect(() => parseCertificatePair(alpha.cert, beta.key, Date.now())).toThrow(
      "the key does not belong to the certificate (CN=alpha.test)",
    );
  });

  test("an expired certificate is refused", () => {
    expect(() => parseCertificatePair(alpha.cert, alpha.key, Date.now() + 31 * 86_400_000)).toThrow(/expired on/);
  });

  test("text that is no certificate or no key is refused", () => {
    expect(() => parseCertificatePair("hello", alpha.key, Date.now())).toThrow(CertificatePairError);
    expect(() => parseCertificatePair(alpha.cert, "not a key", Date.now())).toThrow(
      "no readable unencrypted PEM private key",
    );
  });

  test("a chain keeps every certificate, leaf first", () => {
    const pair = parseCertificatePair(alpha.cert + beta.cert, alpha.key, Date.now());
    expect(pair.cert.match(/BEGIN CERTIFICATE/g)?.length).toBe(2);
    expect(pair.subject).toBe("CN=alpha.test");
  });
});

describe("readCertificatePair", () => {
  test("a missing file names the file", () => {
    expect(() => readCertificatePair(join(dir.dir, "nope.crt"), alpha.keyPath, Date.now())).toThrow(
      /cannot read the certificate file .*nope\.crt: no such file/,
    );
  });

  test("a mismatch names both files", () => {
    const keyPath = join(dir.dir, "other.key");
    writeFileSync(keyPath, beta.key);
    expect(() => readCertificatePair(alpha.certPath, keyPath, Date.now())).toThrow(
      `${alpha.certPath} + ${keyPath}: the key does not belong`,
    );
  });
});
