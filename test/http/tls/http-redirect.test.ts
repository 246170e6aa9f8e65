import { describe, expect, test } from "bun:test";
import { redirectToHttps } from "../../../src/http/tls/http-redirect.ts";
import { secureResponse } from "../../../src/http/tls/https-headers.ts";
import { listenFailure } from "../../../src/http/tls/serve-tls.ts";

const challenge = (token: string) => (token === "tok123" ? "tok123.thumbprint" : null);

describe("plain HTTP while TLS is on", () => {
  test("a request is sent with 308 to the same path and query on https", async () => {
    const response = await redirectToHttps(
      new Request("http://chat.example.com/api/v1/leads?limit=5", {
        method: "POST",
        headers: { host: "chat.example.com" },
      }),
      { httpsPort: 443, challenge },
    );
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe("https://chat.example.com/api/v1/leads?limit=5");
  });

  test("the HTTPS port is named when it is not 443, and the plain port is dropped", async () => {
    const response = await redirectToHttps(new Request("http://x/a", { headers: { host: "chat.example.com:8080" } }), {
      httpsPort: 8443,
      challenge,
    });
    expect(response.headers.get("location")).toBe("https://chat.example.com:8443/a");
  });

  test("an ACME challenge is answered over plain HTTP, an unknown one is 404 JSON", async () => {
    const known = await redirectToHttps(
      new Request("http://x/.well-known/acme-challenge/tok123", { headers: { host: "x" } }),
      { httpsPort: 443, challenge },
    );
    expect(known.status).toBe(200);
    expect(await known.text()).toBe("tok123.thumbprint");
    const unknown = await redirectToHttps(
      new Request("http://x/.well-known/acme-challenge/other", { headers: { host: "x" } }),
      { httpsPort: 443, challenge },
    );
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("not_found");
  });

  test("a Host header that is no host name is 400, not a redirect to it", async () => {
    const response = await redirectToHttps(new Request("http://x/", { headers: { host: "evil.example/path" } }), {
      httpsPort: 443,
      challenge,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_host");
  });
});

describe("HTTPS responses", () => {
  test("carry Strict-Transport-Security with the configured max-age, none with 0", () => {
    expect(secureResponse(new Response("ok"), 31_536_000).headers.get("strict-transport-security")).toBe(
      "max-age=31536000",
    );
    expect(secureResponse(new Response("ok"), 0).headers.get("strict-transport-security")).toBeNull();
  });

  test("immutable responses get the header too", () => {
    expect(secureResponse(Response.redirect("https://x/", 302), 60).headers.get("strict-transport-security")).toBe(
      "max-age=60",
    );
  });

  test("cookies are made Secure, already Secure ones are kept as they are", () => {
    const headers = new Headers();
    headers.append("set-cookie", "a=1; Path=/; HttpOnly");
    headers.append("set-cookie", "b=2; Secure");
    expect(secureResponse(new Response("ok", { headers }), 0).headers.getSetCookie()).toEqual([
      "a=1; Path=/; HttpOnly; Secure",
      "b=2; Secure",
    ]);
  });
});

describe("a refused bind", () => {
  test("EACCES says how to bind a low port without root", () => {
    const error = Object.assign(new Error("listen EACCES"), { code: "EACCES" });
    const message = listenFailure(error, "0.0.0.0", 443);
    expect(message).toStartWith("cannot listen on 0.0.0.0:443: permission denied");
    expect(message).toContain("CAP_NET_BIND_SERVICE");
  });

  test("a port in use is named", () => {
    expect(listenFailure(Object.assign(new Error("x"), { code: "EADDRINUSE" }), "127.0.0.1", 80)).toBe(
      "cannot listen on 127.0.0.1:80: the port is in use by another program",
    );
  });
});
