import { defaultPublicUrl, type TlsConfig, tlsSettings } from "./config/tls.ts";
import {
  boolean,
  ConfigError,
  duration,
  durationWithin,
  type Env,
  integer,
  oneOf,
  percentage,
  setting,
  url,
} from "./config/values.ts";

// Parsers and the TLS settings live in src/config/; callers keep importing them from here.
export { CONFIG_DEFAULTS, ConfigError } from "./config/values.ts";
export { tlsEnabled } from "./config/tls.ts";

export interface Config extends TlsConfig {
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
}

/** Command-line flags that override their environment twins. */
export interface ConfigFlags {
  db?: string;
  port?: string;
  host?: string;
  demo?: boolean;
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
