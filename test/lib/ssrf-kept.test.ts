import { describe, expect, test } from "bun:test";
import { fetchPinned, PinnedFetchRefused } from "../../src/lib/pinned-fetch.ts";
import { inspectWithoutLookup, inspectWithoutLookupKept } from "../../src/lib/ssrf.ts";

// Only fake resolvers and a fake dialer: these tests never touch DNS or the network.
describe("inspectWithoutLookupKept (a sender's verdicts kept per URL)", () => {
  test("a URL is parsed once per setting, and the kept verdict is the one a fresh check gives", () => {
    const url = "https://hooks.example.com/kept";
    const first = inspectWithoutLookupKept(url, { allowPrivate: false });
    expect(inspectWithoutLookupKept(url, { allowPrivate: false })).toBe(first);
    expect(first).toEqual(inspectWithoutLookup(url, { allowPrivate: false }));
    const allowed = inspectWithoutLookupKept(url, { allowPrivate: true });
    expect(allowed).not.toBe(first);
    expect(allowed).toMatchObject({ ok: true, addresses: [] });
    expect(inspectWithoutLookupKept("http://127.0.0.1:9/kept", { allowPrivate: false })).toMatchObject({
      ok: false,
      reason: "forbidden",
    });
  });

  test("a kept URL is still resolved and checked on every send: a name re-pointed at a private address is refused", async () => {
    let answer = ["93.184.216.34"];
    const dialed: string[] = [];
    const options = {
      allowPrivate: false,
      resolveHost: async () => answer,
      dial: (async (target: string | URL | Request) => {
        dialed.push(String(target));
        return new Response("ok");
      }) as typeof fetch,
    };
    const url = "http://rebind.example.com/hook";
    expect((await fetchPinned(url, { method: "POST" }, options)).status).toBe(200);
    answer = ["10.0.0.7"];
    const refused = await fetchPinned(url, { method: "POST" }, options).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PinnedFetchRefused);
    expect((refused as PinnedFetchRefused).reason).toBe("forbidden");
    expect(dialed).toEqual(["http://93.184.216.34/hook"]);
  });
});
