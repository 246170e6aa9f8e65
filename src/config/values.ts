import { formatDuration, parseDuration } from "../lib/durations.ts";

export class ConfigError extends Error {
  override name = "ConfigError";
}

export type Env = Record<string, string | undefined>;

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

/** The setting's text from the environment, or its default when unset or empty. */
export function setting(env: Env, name: keyof typeof CONFIG_DEFAULTS): string {
  const value = env[name];
  return value === undefined || value === "" ? CONFIG_DEFAULTS[name] : value.trim();
}

// Each parser below names the setting in its error, so a typo stops the program with one clear line.

export function duration(name: string, text: string, minMs: number): number {
  const ms = parseDuration(text);
  if (ms === null) throw new ConfigError(`${name}=${text} is not a duration (use e.g. 250ms, 30s, 5m, 2h, 7d)`);
  if (ms < minMs) throw new ConfigError(`${name}=${text} is below the minimum of ${formatDuration(minMs)}`);
  return ms;
}

export function durationWithin(name: string, text: string, minMs: number, maxMs: number): number {
  const ms = duration(name, text, minMs);
  if (ms > maxMs) throw new ConfigError(`${name}=${text} is above the maximum of ${formatDuration(maxMs)}`);
  return ms;
}

export function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new ConfigError(`${name}=${text} is not a whole number`);
  const value = Number(text);
  if (value < min || value > max) throw new ConfigError(`${name}=${text} must be between ${min} and ${max}`);
  return value;
}

export function oneOf<const T extends string>(name: string, text: string, allowed: readonly T[]): T {
  const lowered = text.toLowerCase();
  const found = allowed.find((value) => value === lowered);
  if (!found) throw new ConfigError(`${name}=${text} must be one of: ${allowed.join(", ")}`);
  return found;
}

export function boolean(name: string, text: string): boolean {
  const value = oneOf(name, text, ["true", "false", "1", "0", "yes", "no", "on", "off"]);
  return value === "true" || value === "1" || value === "yes" || value === "on";
}

/** "2%" or "0.02": a share from 0 (exclusive) to 100 %. */
export function percentage(name: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(value > 0 && value <= 1))
    throw new ConfigError(`${name}=${text} must be a share such as 2% or 0.02 (above 0, at most 100%)`);
  return value;
}

export function url(name: string, text: string): string {
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
