import { describe, expect, test } from "bun:test";
import { CONFIG_DEFAULTS, ConfigError, loadConfig } from "../src/config.ts";

describe("loadConfig", () => {
  test("defaults follow DESIGN §5 and the result is frozen", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.dbPath).toBe("./data/parley.db");
    expect(config.retryDelaysMs).toEqual([30_000, 300_000, 1_800_000]);
    expect(config.deliveryTimeoutMs).toBe(10_000);
    expect(config.dlqRetentionMs).toBe(7 * 86_400_000);
    expect(config.pollIntervalMs).toBe(250);
    expect(config.allowPrivateWebhooks).toBe(false);
    expect(config.trustProxy).toBe(false);
    expect(config.sync).toBe("normal");
    expect(config.jwtSecret).toBeNull();
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(Object.isFrozen(config)).toBe(true);
  });

  test("human durations and booleans are read from the environment", () => {
    const config = loadConfig({
      PARLEY_RETRY_DELAYS: "1s,2s,500ms",
      PARLEY_DELIVERY_TIMEOUT: "2s",
      PARLEY_DLQ_RETENTION: "1h",
      PARLEY_ALLOW_PRIVATE_WEBHOOKS: "true",
      PARLEY_TRUST_PROXY: "yes",
      PARLEY_SYNC: "FULL",
      PARLEY_PUBLIC_URL: "https://chat.example.com/",
    });
    expect(config.retryDelaysMs).toEqual([1000, 2000, 500]);
    expect(config.deliveryTimeoutMs).toBe(2000);
    expect(config.dlqRetentionMs).toBe(3_600_000);
    expect(config.allowPrivateWebhooks).toBe(true);
    expect(config.trustProxy).toBe(true);
    expect(config.sync).toBe("full");
    expect(config.publicUrl).toBe("https://chat.example.com");
  });

  test("flags win over their environment twins", () => {
    const config = loadConfig(
      { PARLEY_PORT: "4000", PARLEY_DB: "/tmp/a.db" },
      { port: "5000", db: "/tmp/b.db", host: "127.0.0.1" },
    );
    expect(config.port).toBe(5000);
    expect(config.dbPath).toBe("/tmp/b.db");
    expect(config.host).toBe("127.0.0.1");
  });

  const rejections: Array<[string, Record<string, string>, RegExp]> = [
    ["a port that is not a number", { PARLEY_PORT: "abc" }, /PARLEY_PORT=abc is not a whole number/],
    ["a port out of range", { PARLEY_PORT: "70000" }, /between 0 and 65535/],
    [
      "retry delays that are not durations",
      { PARLEY_RETRY_DELAYS: "soon" },
      /PARLEY_RETRY_DELAYS=soon is not a duration/,
    ],
    ["an empty entry in the retry delays", { PARLEY_RETRY_DELAYS: "30s,,5m" }, /is not a duration/],
    ["more than ten retry delays", { PARLEY_RETRY_DELAYS: Array(11).fill("1s").join(",") }, /between 1 and 10 delays/],
    ["a timeout below 100 ms", { PARLEY_DELIVERY_TIMEOUT: "5ms" }, /below the minimum/],
    ["a retention without a unit", { PARLEY_DLQ_RETENTION: "7" }, /is not a duration/],
    ["a poll interval with an unknown unit", { PARLEY_POLL_INTERVAL: "1w" }, /is not a duration/],
    ["a boolean that is not one", { PARLEY_ALLOW_PRIVATE_WEBHOOKS: "maybe" }, /must be one of/],
    ["an unknown sync mode", { PARLEY_SYNC: "off" }, /PARLEY_SYNC=off must be one of: normal, full/],
    ["a short JWT secret", { PARLEY_JWT_SECRET: "short" }, /at least 32 characters/],
    ["a public URL that is not http(s)", { PARLEY_PUBLIC_URL: "ftp://x.example" }, /must be an http\(s\) URL/],
    ["a public URL that does not parse", { PARLEY_PUBLIC_URL: "not a url" }, /is not a URL/],
    ["a concurrency of zero", { PARLEY_DELIVERY_CONCURRENCY: "0" }, /between 1 and 10000/],
    ["a host with spaces", { PARLEY_HOST: "my host" }, /not a host name/],
    ["an unknown log level", { PARLEY_LOG_LEVEL: "debug" }, /must be one of: info, error, silent/],
  ];
  for (const [what, env, message] of rejections) {
    test(`${what} is rejected with a clear ConfigError`, () => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    });
  }

  test("a bad --port flag names the flag", () => {
    expect(() => loadConfig({}, { port: "x" })).toThrow(/--port=x is not a whole number/);
  });
});

describe("every setting is documented", () => {
  test("parley --help and the README's configuration table name every PARLEY_* setting", async () => {
    const { MAIN_HELP } = await import("../src/cli/help.ts");
    const readme = await Bun.file(new URL("../README.md", import.meta.url)).text();
    for (const name of Object.keys(CONFIG_DEFAULTS)) {
      expect({ name, inHelp: MAIN_HELP.includes(name) }).toEqual({ name, inHelp: true });
      expect({ name, inReadme: readme.includes(`| \`${name}\``) }).toEqual({ name, inReadme: true });
    }
  });
});
