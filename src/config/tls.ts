import { ConfigError, duration, type Env, integer, setting, url } from "./values.ts";

/** The server's own HTTPS: certificate files or ACME, and the plain-HTTP side beside it. */
export interface TlsConfig {
  /** PEM files of the server's own certificate (chain) and key; both or neither (docs/operations.md, HTTPS). */
  readonly tlsCertPath: string | null;
  readonly tlsKeyPath: string | null;
  /** Where plain HTTP is answered with redirects (and ACME challenges) while TLS is on. */
  readonly httpPort: number;
  /** Strict-Transport-Security max-age on HTTPS responses; 0: no header. */
  readonly hstsSeconds: number;
  /** Domains to obtain certificates for over ACME (empty: no ACME). */
  readonly acmeDomains: readonly string[];
  readonly acmeEmail: string | null;
  readonly acmeDirectory: string;
  /** A PEM file of the CA that signed the ACME directory's own TLS certificate (a private CA). */
  readonly acmeCaCertPath: string | null;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

export function tlsSettings(env: Env): TlsConfig {
  const cert = setting(env, "PARLEY_TLS_CERT") || null;
  const key = setting(env, "PARLEY_TLS_KEY") || null;
  if ((cert === null) !== (key === null))
    throw new ConfigError("PARLEY_TLS_CERT and PARLEY_TLS_KEY go together: set both files or neither");
  const domainsText = setting(env, "PARLEY_ACME_DOMAINS");
  const acmeDomains = domainsText ? domainsText.split(",").map((domain) => domain.trim().toLowerCase()) : [];
  for (const domain of acmeDomains) {
    if (!DOMAIN.test(domain))
      throw new ConfigError(`PARLEY_ACME_DOMAINS: ${domain || "(empty)"} is not a domain name (e.g. chat.example.com)`);
  }
  if (acmeDomains.length > 0 && cert !== null)
    throw new ConfigError(
      "PARLEY_ACME_DOMAINS and PARLEY_TLS_CERT exclude each other: obtain certificates automatically or bring your own",
    );
  const email = setting(env, "PARLEY_ACME_EMAIL") || null;
  if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email))
    throw new ConfigError(`PARLEY_ACME_EMAIL=${email} is not an e-mail address`);
  const hsts = setting(env, "PARLEY_HSTS");
  return {
    tlsCertPath: cert,
    tlsKeyPath: key,
    httpPort: integer("PARLEY_HTTP_PORT", setting(env, "PARLEY_HTTP_PORT"), 0, 65535),
    hstsSeconds: hsts === "0" ? 0 : Math.floor(duration("PARLEY_HSTS", hsts, 1000) / 1000),
    acmeDomains: Object.freeze(acmeDomains),
    acmeEmail: email,
    acmeDirectory: url("PARLEY_ACME_DIRECTORY", setting(env, "PARLEY_ACME_DIRECTORY")),
    acmeCaCertPath: setting(env, "PARLEY_ACME_CA_CERT") || null,
  };
}

/** With TLS on the public address is https: the first ACME domain, else this host on the HTTPS port. */
export function defaultPublicUrl(tls: TlsConfig, port: number): string {
  const domain = tls.acmeDomains[0];
  if (domain) return port === 443 ? `https://${domain}` : `https://${domain}:${port}`;
  return tls.tlsCertPath ? `https://localhost:${port}` : `http://localhost:${port}`;
}

/** True when the server itself speaks HTTPS (own files or ACME). */
export function tlsEnabled(config: Pick<TlsConfig, "tlsCertPath" | "acmeDomains">): boolean {
  return config.tlsCertPath !== null || config.acmeDomains.length > 0;
}
