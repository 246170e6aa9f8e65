import * as acme from "acme-client";
import { readFileSync } from "node:fs";
import { Agent } from "node:https";
import type { Deps } from "../../deps.ts";
import { findAccountKey, saveAccountKey, setChallengeAnswer, type StoredCertificate } from "./acme-store.ts";

let trustedCaPath: string | null = null;

/** A private directory (step-ca, a company CA) presents a certificate only its own root verifies. */
function trustDirectoryCa(caCertPath: string | null): void {
  if (caCertPath === trustedCaPath) return;
  let ca: string;
  try {
    ca = readFileSync(caCertPath ?? "", "utf8");
  } catch {
    throw new Error(`PARLEY_ACME_CA_CERT: cannot read ${caCertPath}`);
  }
  // acme-client sends every request through its own axios instance: the agent trusts this CA.
  acme.axios.defaults.httpsAgent = new Agent({ ca });
  trustedCaPath = caCertPath;
}

/**
 * Obtains a certificate for the configured domains over ACME (RFC 8555) with HTTP-01: the
 * answers go into the database, where every instance's plain-HTTP listener finds them. The
 * account key is made once per directory and kept (sealed) for renewals.
 */
export async function orderCertificate(deps: Deps): Promise<StoredCertificate> {
  const { acmeDirectory: directory, acmeDomains: domains, acmeEmail, acmeCaCertPath } = deps.config;
  if (acmeCaCertPath) trustDirectoryCa(acmeCaCertPath);
  let accountKey = await findAccountKey(deps, directory);
  if (!accountKey) {
    accountKey = (await acme.crypto.createPrivateEcdsaKey()).toString();
    await saveAccountKey(deps, directory, accountKey);
  }
  const client = new acme.Client({ directoryUrl: directory, accountKey });
  const [key, csr] = await acme.crypto.createCsr({ altNames: [...domains] }, await acme.crypto.createPrivateEcdsaKey());
  const cert = await client.auto({
    csr,
    ...(acmeEmail ? { email: acmeEmail } : {}),
    termsOfServiceAgreed: true,
    challengePriority: ["http-01"],
    // Its own pre-check resolves the domain from here, which proves nothing the CA's check does not.
    skipChallengeVerification: true,
    challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
      if (challenge.type !== "http-01") throw new Error(`the CA offers no http-01 challenge (only ${challenge.type})`);
      await setChallengeAnswer(deps, challenge.token, keyAuthorization);
    },
    challengeRemoveFn: async (_authz, challenge) => {
      await setChallengeAnswer(deps, challenge.token, null);
    },
  });
  return { directory, domains: [...domains], cert, key: key.toString(), obtainedAtMs: deps.clock.now() };
}
