import { formatDuration, parseDuration } from "./lib/durations.ts";

export interface Config {
  readonly dbPath: string;
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  /** null: generated on first start and kept in the database's settings table. */
  readonly jwtSecret: string | null;
  readonly retryDelaysMs: readonly number[];
  readonly deliveryTimeoutMs: number;
  /** How long a request that may write waits for another process's SQLite write lock before 503 busy. */
  readonly writeWaitMs: number;
  /** Fraction of a tenant's monthly quota one anonymous address may use per hour (0.02 = 2 %). */
  readonly visitorHourlyShare: number;
  /** New widget sessions one address may open per tenant per hour. */
  readonly visitorSessionsPerHour: number;
  readonly dlqRetentionMs: number;
  /** How long succeeded deliveries, their attempt logs and spent events are kept. */
  readonly eventRetentionMs: number;
  readonly pollIntervalMs: number;
  readonly deliveryConcurrency: number;
  /** Sends in flight at once to one webhook URL (a failing URL gets at most 4). */
  readonly endpointConcurrency: number;
  /** Sends in flight at once for one tenant, so one tenant cannot take every delivery slot. */
  readonly tenantConcurrency: number;
  readonly allowPrivateWebhooks: boolean;
  readonly trustProxy: boolean;
  readonly sync: "normal" | "full";
  readonly rateLimits: boolean;
  /** Wrong passwords one e-mail may get within `loginFailureWindowMs`, from any addresses, before logins to it pause. */
  readonly loginFailureLimit: number;
  readonly loginFailureWindowMs: number;
  readonly logLevel: "info" | "error" | "silent";
  readonly demo: boolean;
  /** The WhatsApp Cloud API base URL replies are sent to (operator-configured, so no SSRF check). */
  readonly whatsappApiUrl: string;
  /** The server-wide model provider (OpenAI-compatible); null: no assistant unless a tenant names one. */
  readonly aiBaseUrl: string | null;
  readonly aiModel: string | null;
  readonly aiApiKey: string | null;
  readonly aiEmbeddingModel: string | null;
  readonly aiTimeoutMs: number;
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

/** Command-line flags that override their environment twins. */
export interface ConfigFlags {
  db?: string;
  port?: string;
  host?: string;
  demo?: boolean;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

/** Every setting, its env name and default: the README's configuration table follows this. */
export const CONFIG_DEFAULTS = {
  PARLEY_DB: "./data/parley.db",
  PARLEY_PORT: "3000",
  PARLEY_HOST: "0.0.0.0",
  PARLEY_RETRY_DELAYS: "30s,5m,30m",
  PARLEY_DELIVERY_TIMEOUT: "10s",
  PARLEY_DLQ_RETENTION: "7d",
  PARLEY_EVENT_RETENTION: "30d",
  PARLEY_POLL_INTERVAL: "250ms",
  PARLEY_DELIVERY_CONCURRENCY: "512",
  PARLEY_ENDPOINT_CONCURRENCY: "16",
  PARLEY_TENANT_CONCURRENCY: "64",
  PARLEY_ALLOW_PRIVATE_WEBHOOKS: "false",
  PARLEY_TRUST_PROXY: "false",
  PARLEY_SYNC: "normal",
  PARLEY_RATE_LIMITS: "on",
  PARLEY_LOGIN_FAILURES: "20",
  PARLEY_LOGIN_FAILURE_WINDOW: "15m",
  PARLEY_LOG_LEVEL: "info",
  PARLEY_WHATSAPP_API_URL: "https://graph.facebook.com/v21.0",
  PARLEY_WRITE_WAIT: "2s",
  PARLEY_VISITOR_SHARE: "2%",
  PARLEY_VISITOR_SESSIONS: "20",
  PARLEY_AI_BASE_URL: "",
  PARLEY_AI_MODEL: "",
  PARLEY_AI_API_KEY: "",
  PARLEY_AI_EMBEDDING_MODEL: "",
  PARLEY_AI_TIMEOUT: "20s",
  PARLEY_TLS_CERT: "",
  PARLEY_TLS_KEY: "",
  PARLEY_HTTP_PORT: "80",
  PARLEY_HSTS: "365d",
  PARLEY_ACME_DOMAINS: "",
  PARLEY_ACME_EMAIL: "",
  PARLEY_ACME_DIRECTORY: "https://acme-v02.api.letsencrypt.org/directory",
  PARLEY_ACME_CA_CERT: "",
} as const;

function setting(env: Env, name: keyof typeof CONFIG_DEFAULTS): string {
  const value = env[name];
  return value === undefined || value === "" ? CONFIG_DEFAULTS[name] : value.trim();
}

function duration(name: string, text: string, minMs: number): number {
  const ms = parseDuration(text);
  if (ms === null) throw new ConfigError(`${name}=${text} is not a duration (use e.g. 250ms, 30s, 5m, 2h, 7d)`);
  if (ms < minMs) throw new ConfigError(`${name}=${text} is below the minimum of ${formatDuration(minMs)}`);
  return ms;
}

function durationWithin(name: string, text: string, minMs: number, maxMs: number): number {
  const ms = duration(name, text, minMs);
  if (ms > maxMs) throw new ConfigError(`${name}=${text} is above the maximum of ${formatDuration(maxMs)}`);
  return ms;
}

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new ConfigError(`${name}=${text} is not a whole number`);
  const value = Number(text);
  if (value < min || value > max) throw new ConfigError(`${name}=${text} must be between ${min} and ${max}`);
  return value;
}

function oneOf<const T extends string>(name: string, text: string, allowed: readonly T[]): T {
  const lowered = text.toLowerCase();
  const found = allowed.find((value) => value === lowered);
  if (!found) throw new ConfigError(`${name}=${text} must be one of: ${allowed.join(", ")}`);
  return found;
}

function boolean(name: string, text: string): boolean {
  const value = oneOf(name, text, ["true", "false", "1", "0", "yes", "no", "on", "off"]);
  return value === "true" || value === "1" || value === "yes" || value === "on";
}

/** "2%" or "0.02": a share from 0 (exclusive) to 100 %. */
function percentage(name: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(value > 0 && value <= 1))
    throw new ConfigError(`${name}=${text} must be a share such as 2% or 0.02 (above 0, at most 100%)`);
  return value;
}

function url(name: string, text: string): string {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ConfigError(`${name}=${text} is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`${name}=${text} must be an http(s) URL`);
  }
  return parsed.origin + parsed.pathname.replace(/\/+$/, "");
}

type TlsSettings = Pick<
  Config,
  | "tlsCertPath"
  | "tlsKeyPath"
  | "httpPort"
  | "hstsSeconds"
  | "acmeDomains"
  | "acmeEmail"
  | "acmeDirectory"
  | "acmeCaCertPath"
>;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

function tlsSettings(env: Env): TlsSettings {
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
function defaultPublicUrl(tls: TlsSettings, port: number): string {
  const domain = tls.acmeDomains[0];
  if (domain) return port === 443 ? `https://${domain}` : `https://${domain}:${port}`;
  return tls.tlsCertPath ? `https://localhost:${port}` : `http://localhost:${port}`;
}

/** True when the server itself speaks HTTPS (own files or ACME). */
export function tlsEnabled(config: Pick<Config, "tlsCertPath" | "acmeDomains">): boolean {
  return config.tlsCertPath !== null || config.acmeDomains.length > 0;
}

/**
 * Reads configuration once at start: flags win over env, env over defaults. Every value is
 * validated here so a typo stops the program with one clear line instead of misbehaving later.
 */
export function loadConfig(env: Env, flags: ConfigFlags = {}): Config {
  const port = integer(
    flags.port === undefined ? "PARLEY_PORT" : "--port",
    flags.port ?? setting(env, "PARLEY_PORT"),
    0,
    65535,
  );
  const host = flags.host ?? setting(env, "PARLEY_HOST");
  if (!/^[\w.:-]+$/.test(host)) throw new ConfigError(`PARLEY_HOST=${host} is not a host name or address`);

  const delaysText = setting(env, "PARLEY_RETRY_DELAYS");
  const retryDelaysMs = delaysText.split(",").map((part) => duration("PARLEY_RETRY_DELAYS", part, 0));
  if (retryDelaysMs.length < 1 || retryDelaysMs.length > 10) {
    throw new ConfigError(`PARLEY_RETRY_DELAYS=${delaysText} must list between 1 and 10 delays`);
  }

  const jwtSecret = env.PARLEY_JWT_SECRET?.trim() || null;
  if (jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError("PARLEY_JWT_SECRET must be at least 32 characters");
  }

  const deliveryTimeoutMs = duration("PARLEY_DELIVERY_TIMEOUT", setting(env, "PARLEY_DELIVERY_TIMEOUT"), 100);
  const publicUrlText = env.PARLEY_PUBLIC_URL?.trim();
  const dbPath = flags.db ?? setting(env, "PARLEY_DB");
  if (dbPath.length === 0) throw new ConfigError("--db must name a file");
  const tls = tlsSettings(env);

  return Object.freeze({
    dbPath,
    port,
    host,
    publicUrl: publicUrlText ? url("PARLEY_PUBLIC_URL", publicUrlText) : defaultPublicUrl(tls, port),
    jwtSecret,
    retryDelaysMs: Object.freeze(retryDelaysMs),
    deliveryTimeoutMs,
    writeWaitMs: duration("PARLEY_WRITE_WAIT", setting(env, "PARLEY_WRITE_WAIT"), 0),
    visitorHourlyShare: percentage("PARLEY_VISITOR_SHARE", setting(env, "PARLEY_VISITOR_SHARE")),
    visitorSessionsPerHour: integer("PARLEY_VISITOR_SESSIONS", setting(env, "PARLEY_VISITOR_SESSIONS"), 1, 100_000),
    dlqRetentionMs: duration("PARLEY_DLQ_RETENTION", setting(env, "PARLEY_DLQ_RETENTION"), 1000),
    // At least an hour: the delivery log must outlive the retry schedule it documents.
    eventRetentionMs: duration("PARLEY_EVENT_RETENTION", setting(env, "PARLEY_EVENT_RETENTION"), 3_600_000),
    pollIntervalMs: duration("PARLEY_POLL_INTERVAL", setting(env, "PARLEY_POLL_INTERVAL"), 10),
    deliveryConcurrency: integer("PARLEY_DELIVERY_CONCURRENCY", setting(env, "PARLEY_DELIVERY_CONCURRENCY"), 1, 10_000),
    endpointConcurrency: integer("PARLEY_ENDPOINT_CONCURRENCY", setting(env, "PARLEY_ENDPOINT_CONCURRENCY"), 1, 10_000),
    tenantConcurrency: integer("PARLEY_TENANT_CONCURRENCY", setting(env, "PARLEY_TENANT_CONCURRENCY"), 1, 10_000),
    allowPrivateWebhooks: boolean("PARLEY_ALLOW_PRIVATE_WEBHOOKS", setting(env, "PARLEY_ALLOW_PRIVATE_WEBHOOKS")),
    trustProxy: boolean("PARLEY_TRUST_PROXY", setting(env, "PARLEY_TRUST_PROXY")),
    sync: oneOf("PARLEY_SYNC", setting(env, "PARLEY_SYNC"), ["normal", "full"]),
    rateLimits: boolean("PARLEY_RATE_LIMITS", setting(env, "PARLEY_RATE_LIMITS")),
    loginFailureLimit: integer("PARLEY_LOGIN_FAILURES", setting(env, "PARLEY_LOGIN_FAILURES"), 1, 10_000),
    // At most a day: the pause protects an account from guessing and must never lock its owner out for long.
    loginFailureWindowMs: durationWithin(
      "PARLEY_LOGIN_FAILURE_WINDOW",
      setting(env, "PARLEY_LOGIN_FAILURE_WINDOW"),
      1000,
      86_400_000,
    ),
    logLevel: oneOf("PARLEY_LOG_LEVEL", setting(env, "PARLEY_LOG_LEVEL"), ["info", "error", "silent"]),
    demo: flags.demo ?? false,
    whatsappApiUrl: url("PARLEY_WHATSAPP_API_URL", setting(env, "PARLEY_WHATSAPP_API_URL")),
    aiBaseUrl: setting(env, "PARLEY_AI_BASE_URL")
      ? url("PARLEY_AI_BASE_URL", setting(env, "PARLEY_AI_BASE_URL"))
      : null,
    aiModel: setting(env, "PARLEY_AI_MODEL") || null,
    aiApiKey: setting(env, "PARLEY_AI_API_KEY") || null,
    aiEmbeddingModel: setting(env, "PARLEY_AI_EMBEDDING_MODEL") || null,
    aiTimeoutMs: duration("PARLEY_AI_TIMEOUT", setting(env, "PARLEY_AI_TIMEOUT"), 100),
    ...tls,
  });
}
