import { describe, expect, test } from "bun:test";
import { loadConfig, tlsEnabled } from "../../../src/config.ts";

describe("TLS settings", () => {
  test("without TLS settings the server is plain HTTP as before", () => {
    const config = loadConfig({});
    expect(tlsEnabled(config)).toBe(false);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.httpPort).toBe(80);
    expect(config.hstsSeconds).toBe(31_536_000);
    expect(config.acmeDirectory).toBe("https://acme-v02.api.letsencrypt.org/directory");
  });

  test("own files turn TLS on and the public URL to https", () => {
    const config = loadConfig({ PARLEY_TLS_CERT: "/etc/c.pem", PARLEY_TLS_KEY: "/etc/k.pem", PARLEY_PORT: "8443" });
    expect(tlsEnabled(config)).toBe(true);
    expect(config.publicUrl).toBe("https://localhost:8443");
  });

  test("the first ACME domain is the public URL's host", () => {
    expect(loadConfig({ PARLEY_ACME_DOMAINS: "Chat.Example.com, www.example.com", PARLEY_PORT: "443" }).publicUrl).toBe(
      "https://chat.example.com",
    );
    expect(loadConfig({ PARLEY_ACME_DOMAINS: "chat.example.com", PARLEY_PORT: "8443" }).acmeDomains).toEqual([
      "chat.example.com",
    ]);
    expect(
      loadConfig({ PARLEY_ACME_DOMAINS: "chat.example.com", PARLEY_PUBLIC_URL: "https://other.example.com" }).publicUrl,
    ).toBe("https://other.example.com");
  });

  test("PARLEY_HSTS takes a duration, 0 turns it off", () => {
    expect(loadConfig({ PARLEY_HSTS: "0" }).hstsSeconds).toBe(0);
    expect(loadConfig({ PARLEY_HSTS: "2d" }).hstsSeconds).toBe(172_800);
    expect(() => loadConfig({ PARLEY_HSTS: "forever" })).toThrow("PARLEY_HSTS=forever is not a duration");
  });

  test("mistakes stop start-up with one line", () => {
    expect(() => loadConfig({ PARLEY_TLS_CERT: "/etc/c.pem" })).toThrow(
      "PARLEY_TLS_CERT and PARLEY_TLS_KEY go together",
    );
    expect(() => loadConfig({ PARLEY_ACME_DOMAINS: "chat.example.com,not a domain" })).toThrow(
      "PARLEY_ACME_DOMAINS: not a domain is not a domain name",
    );
    expect(() =>
      loadConfig({ PARLEY_ACME_DOMAINS: "a.example.com", PARLEY_TLS_CERT: "c", PARLEY_TLS_KEY: "k" }),
    ).toThrow("exclude each other");
    expect(() => loadConfig({ PARLEY_ACME_EMAIL: "nobody" })).toThrow(
      "PARLEY_ACME_EMAIL=nobody is not an e-mail address",
    );
    expect(() => loadConfig({ PARLEY_HTTP_PORT: "70000" })).toThrow(
      "PARLEY_HTTP_PORT=70000 must be between 0 and 65535",
    );
  });
});
