import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Server } from "bun";
import { fetchPinned, pinnedRequest, PinnedFetchRefused } from "../../src/lib/pinned-fetch.ts";
import { sendWebhook } from "../../src/webhooks/send-webhook.ts";
import type { ResolveHost } from "../../src/lib/ssrf.ts";

// DNS re-binding: the name answers a public address to the check and a private one afterwards.
// Only fake resolvers here; a request that would leave the machine goes to a fake dialer instead.

const PUBLIC_IP = "93.184.216.34";
const OTHER_PUBLIC_IP = "93.184.216.35";
const NAME = "hooks.example.test";

/** Answers `first` to the first lookup and `later` to every lookup after it; counts lookups. */
function rebindingResolver(first: string[], later: string[]): ResolveHost & { calls: number } {
  const resolver = Object.assign(async (_host: string) => (resolver.calls++ === 0 ? first : later), { calls: 0 });
  return resolver;
}

interface Dialled {
  url: string;
  host: string | null;
  serverName: string | undefined;
}

/** Records where each request would connect and answers 204, or throws `fail(url)` when given. */
function fakeDialer(fail?: (url: string) => Error | null) {
  const dialled: Dialled[] = [];
  const dial = (async (input: string | URL | Request, init?: BunFetchRequestInit) => {
    const url = String(input);
    dialled.push({ url, host: new Headers(init?.headers).get("host"), serverName: init?.tls?.serverName });
    const error = fail?.(url);
    if (error) throw error;
    return new Response(null, { status: 204 });
  }) as typeof fetch;
  return { dial, dialled };
}

const refusedError = () => Object.assign(new Error("Unable to connect"), { code: "ECONNREFUSED" });

let local: Server<undefined>;
let localTls: Server<undefined>;
const seen: string[] = [];
const certPem = await Bun.file(join(import.meta.dir, "fixtures/pinning-test-cert.pem")).text();
const keyPem = await Bun.file(join(import.meta.dir, "fixtures/pinning-test-key.pem")).text();

beforeAll(() => {
  const answer = (request: Request) => {
    seen.push(`${new URL(request.url).protocol} host=${request.headers.get("host")}`);
    return new Response("pinned");
  };
  local = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: answer });
  localTls = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: { cert: certPem, key: keyPem }, fetch: answer });
});
afterAll(() => {
  local.stop(true);
  localTls.stop(true);
});

describe("a host name whose resolution changes between check and connect", () => {
  test("is resolved once and the request goes to the checked public address, never to the private one", async () => {
    const resolver = rebindingResolver([PUBLIC_IP], ["127.0.0.1"]);
    const { dial, dialled } = fakeDialer();
    const response = await fetchPinned(
      `https://${NAME}/hooks?x=1`,
      { method: "POST", body: "{}" },
      { allowPrivate: false, resolveHost: resolver, dial },
    );
    expect(response.status).toBe(204);
    expect(resolver.calls).toBe(1);
    expect(dialled).toEqual([{ url: `https://${PUBLIC_IP}/hooks?x=1`, host: NAME, serverName: NAME }]);
  });

  test("a webhook attempt to such a name never reaches a receiver on the private address", async () => {
    const before = seen.length;
    const resolver = rebindingResolver([PUBLIC_IP], ["127.0.0.1"]);
    const { dial, dialled } = fakeDialer();
    const result = await sendWebhook({
      url: `http://${NAME}:${local.port}/hook`,
      headers: { "content-type": "application/json" },
      body: "{}",
      timeoutMs: 2_000,
      allowPrivate: false,
      resolve: resolver,
      pinning: { dial },
    });
    expect(result).toMatchObject({ ok: true, statusCode: 204 });
    expect(dialled.map((entry) => entry.url)).toEqual([`http://${PUBLIC_IP}:${local.port}/hook`]);
    expect(dialled[0]?.host).toBe(`${NAME}:${local.port}`);
    expect(seen.length).toBe(before);
  });

  test("answering the private address at check time is refused before any connection", async () => {
    const resolver = rebindingResolver(["127.0.0.1"], [PUBLIC_IP]);
    const { dial, dialled } = fakeDialer();
    const result = await sendWebhook({
      url: `http://${NAME}/hook`,
      headers: {},
      body: "{}",
      timeoutMs: 2_000,
      allowPrivate: false,
      resolve: resolver,
      pinning: { dial },
    });
    expect(result.ok).toBe(false);
    expect(result.error).toStartWith("forbidden_address:");
    expect(dialled).toEqual([]);
  });

  test("a name with one public and one private address is refused whole", async () => {
    const { dial, dialled } = fakeDialer();
    const attempt = fetchPinned(
      `http://${NAME}/`,
      {},
      { allowPrivate: false, resolveHost: async () => [PUBLIC_IP, "10.0.0.7"], dial },
    );
    await expect(attempt).rejects.toBeInstanceOf(PinnedFetchRefused);
    expect(dialled).toEqual([]);
  });
});

describe("fetchPinned with several checked addresses", () => {
  test("tries the next checked address only when the connection was refused", async () => {
    const { dial, dialled } = fakeDialer((url) => (url.includes(PUBLIC_IP) ? refusedError() : null));
    const response = await fetchPinned(
      `http://${NAME}/`,
      { method: "POST", body: "x" },
      { allowPrivate: false, resolveHost: async () => [PUBLIC_IP, OTHER_PUBLIC_IP], dial },
    );
    expect(response.status).toBe(204);
    expect(dialled.map((entry) => entry.url)).toEqual([`http://${PUBLIC_IP}/`, `http://${OTHER_PUBLIC_IP}/`]);
  });

  test("does not send again after any other error (the request may have been received)", async () => {
    const { dial, dialled } = fakeDialer(() => Object.assign(new Error("reset"), { code: "ECONNRESET" }));
    await expect(
      fetchPinned(
        `http://${NAME}/`,
        { method: "POST", body: "x" },
        { allowPrivate: false, resolveHost: async () => [PUBLIC_IP, OTHER_PUBLIC_IP], dial },
      ),
    ).rejects.toThrow("reset");
    expect(dialled).toHaveLength(1);
  });

  test("an IPv6 address is dialled in brackets, IPv4 addresses first", async () => {
    const { dial, dialled } = fakeDialer((url) => (url.includes(PUBLIC_IP) ? refusedError() : null));
    await fetchPinned(
      `https://${NAME}:8443/p`,
      {},
      { allowPrivate: false, resolveHost: async () => ["2606:2800:220:1:248:1893:25c8:1946", PUBLIC_IP], dial },
    );
    expect(dialled.map((entry) => entry.url)).toEqual([
      `https://${PUBLIC_IP}:8443/p`,
      "https://[2606:2800:220:1:248:1893:25c8:1946]:8443/p",
    ]);
    expect(dialled.every((entry) => entry.host === `${NAME}:8443` && entry.serverName === NAME)).toBe(true);
  });
});

describe("the pinned request over real sockets", () => {
  test("over http the receiver on the pinned address sees the original host name", async () => {
    const url = new URL(`http://${NAME}:${local.port}/path?q=1`);
    const request = pinnedRequest(url, "127.0.0.1", { method: "POST", body: "x" });
    const response = await fetch(request.target, request.init);
    expect(await response.text()).toBe("pinned");
    expect(seen.at(-1)).toBe(`http: host=${NAME}:${local.port}`);
  });

  test("over https the certificate is verified against the original host name, not the pinned address", async () => {
    const url = new URL(`https://${NAME}:${localTls.port}/`);
    const request = pinnedRequest(url, "127.0.0.1", { method: "POST", body: "x" }, [certPem]);
    const response = await fetch(request.target, request.init);
    expect(await response.text()).toBe("pinned");
    expect(seen.at(-1)).toBe(`https: host=${NAME}:${localTls.port}`);
  });

  test("over https a certificate for another name is refused, though the address is the same", async () => {
    const url = new URL(`https://other.example.test:${localTls.port}/`);
    const request = pinnedRequest(url, "127.0.0.1", {}, [certPem]);
    await expect(fetch(request.target, request.init)).rejects.toThrow(/ALTNAME|certificate|hostname/i);
  });

  test("over https a certificate no trusted authority signed is refused", async () => {
    const url = new URL(`https://${NAME}:${localTls.port}/`);
    const request = pinnedRequest(url, "127.0.0.1", {});
    await expect(fetch(request.target, request.init)).rejects.toThrow();
  });
});
