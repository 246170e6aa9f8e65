import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/lib/app-error.ts";
import {
  cachedResolver,
  checkWebhookUrl,
  DNS_CACHE_MAX_HOSTS,
  inspectWebhookUrl,
  inspectWithoutLookup,
  isForbiddenAddress,
  resolveAndCheck,
  type ResolveHost,
} from "../../src/lib/ssrf.ts";

// Only fake resolvers: these tests never touch real DNS.
const resolveTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses;
const failingResolver: ResolveHost = async () => {
  throw new Error("ENOTFOUND");
};
const publicResolver = resolveTo("93.184.216.34");

async function refusal(url: string, resolve: ResolveHost = publicResolver): Promise<AppError> {
  try {
    await checkWebhookUrl(url, { allowPrivate: false, resolve });
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe("checkWebhookUrl refuses", () => {
  const FORBIDDEN_LITERALS: ReadonlyArray<[string, string]> = [
    ["loopback", "http://127.0.0.1/hook"],
    ["loopback elsewhere in 127/8", "http://127.45.6.7:8080/hook"],
    ["IPv6 loopback", "http://[::1]/hook"],
    ["private 10/8", "http://10.1.2.3/hook"],
    ["private 172.16/12", "http://172.31.255.1/hook"],
    ["private 192.168/16", "https://192.168.1.10/hook"],
    ["link-local (cloud metadata)", "http://169.254.169.254/latest/meta-data/"],
    ["IPv6 link-local", "http://[fe80::1]/hook"],
    ["CGNAT 100.64/10", "http://100.64.0.1/hook"],
    ["multicast", "http://224.0.0.251/hook"],
    ["IPv6 multicast", "http://[ff02::1]/hook"],
    ["unspecified 0.0.0.0", "http://0.0.0.0/hook"],
    ["IPv6 unspecified", "http://[::]/hook"],
    ["broadcast", "http://255.255.255.255/hook"],
    ["reserved 240/4", "http://240.0.0.1/hook"],
    ["documentation range", "http://192.0.2.10/hook"],
    ["IPv6 unique-local", "http://[fd12:3456:789a::1]/hook"],
    ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/hook"],
    ["IPv4-mapped private in hex form", "http://[::ffff:a00:1]/hook"],
    ["IPv4-compatible loopback", "http://[::127.0.0.1]/hook"],
    ["NAT64 of loopback", "http://[64:ff9b::7f00:1]/hook"],
    ["6to4 of a private address", "http://[2002:c0a8:101::1]/hook"],
    ["decimal IPv4", "http://2130706433/hook"],
    ["hex IPv4", "http://0x7f000001/hook"],
    ["octal IPv4", "http://0177.0.0.1/hook"],
    ["short IPv4", "http://127.1/hook"],
  ];

  for (const [label, url] of FORBIDDEN_LITERALS) {
    test(`a ${label} literal (${url}) with 422 validation_failed`, async () => {
      const error = await refusal(url);
      expect(error.status).toBe(422);
      expect(error.code).toBe("validation_failed");
      expect(error.message).toStartWith("url: ");
      expect(error.message).toContain("PARLEY_ALLOW_PRIVATE_WEBHOOKS");
    });
  }

  test("localhost and its subdomains without asking the resolver", async () => {
    let lookups = 0;
    const counting: ResolveHost = async () => {
      lookups++;
      return ["93.184.216.34"];
    };
    for (const url of ["http://localhost/hook", "http://LOCALHOST./hook", "http://api.localhost:3000/hook"]) {
      expect((await refusal(url, counting)).message).toContain("loopback");
    }
    expect(lookups).toBe(0);
  });

  test("a hostname that resolves to 127.0.0.1", async () => {
    const error = await refusal("https://hooks.example.com/in", resolveTo("127.0.0.1"));
    expect(error.message).toContain("127.0.0.1");
  });

  test("a rebinding name with one public and one private address", async () => {
    const error = await refusal("https://rebind.example.com/in", resolveTo("93.184.216.34", "10.0.0.5"));
    expect(error.message).toContain("10.0.0.5");
  });

  test("a name whose AAAA record is IPv4-mapped loopback", async () => {
    await refusal("https://hooks.example.com/in", resolveTo("::ffff:7f00:1"));
  });

  test("a name that cannot be resolved, saying so", async () => {
    expect((await refusal("https://nowhere.invalid/in", failingResolver)).message).toContain("cannot resolve host");
    expect((await refusal("https://empty.example.com/in", resolveTo())).message).toContain("cannot resolve host");
  });

  test("credentials in the URL", async () => {
    expect((await refusal("https://user:pass@hooks.example.com/in")).message).toContain("username or password");
    expect((await refusal("https://user@hooks.example.com/in")).message).toContain("username or password");
  });

  test("schemes other than http and https", async () => {
    for (const url of [
      "ftp://hooks.example.com/in",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "gopher://hooks.example.com/",
    ]) {
      expect((await refusal(url)).message).toContain("use http or https");
    }
  });

  test("text that is not a URL", async () => {
    expect((await refusal("not a url")).status).toBe(422);
    expect((await refusal("/relative/path")).status).toBe(422);
  });
});

describe("checkWebhookUrl accepts", () => {
  test("a hostname resolving only to a public address", async () => {
    const url = await checkWebhookUrl("https://hooks.example.com/in?x=1", {
      allowPrivate: false,
      resolve: publicResolver,
    });
    expect(url.href).toBe("https://hooks.example.com/in?x=1");
  });

  test("public IPv4 and IPv6 literals, and NAT64 of a public address", async () => {
    for (const url of [
      "http://93.184.216.34/hook",
      "http://[2606:2800:220:1:248:1893:25c8:1946]/hook",
      "http://[64:ff9b::5db8:d822]/hook",
    ]) {
      expect((await checkWebhookUrl(url, { allowPrivate: false, resolve: failingResolver })).href).toBe(url);
    }
  });

  test("loopback and private targets when allowPrivate is true", async () => {
    for (const url of [
      "http://127.0.0.1:4000/hook",
      "http://localhost/hook",
      "http://[::1]/hook",
      "http://10.0.0.1/hook",
    ]) {
      expect((await checkWebhookUrl(url, { allowPrivate: true, resolve: failingResolver })).href).toBe(url);
    }
  });

  test("but not credentials or ftp even when allowPrivate is true", async () => {
    await expect(checkWebhookUrl("http://a:b@127.0.0.1/", { allowPrivate: true })).rejects.toBeInstanceOf(AppError);
    await expect(checkWebhookUrl("ftp://127.0.0.1/", { allowPrivate: true })).rejects.toBeInstanceOf(AppError);
  });
});

describe("inspectWithoutLookup (a sender's check, at once)", () => {
  test("decides every URL that needs no DNS, as inspectWebhookUrl does", async () => {
    const cases: Array<[string, boolean]> = [
      ["not a url", false],
      ["ftp://93.184.216.34/", false],
      ["http://a:b@93.184.216.34/", false],
      ["http://localhost:4000/hook", false],
      ["http://127.0.0.1/hook", false],
      ["http://[::ffff:169.254.169.254]/hook", false],
      ["http://93.184.216.34/hook", true],
      ["http://127.0.0.1:4000/hook", true],
      ["https://hooks.example.com/in", true],
    ];
    for (const [url, allowPrivate] of cases) {
      const known = inspectWithoutLookup(url, { allowPrivate });
      if ("lookup" in known) throw new Error(`${url} asked for a lookup`);
      expect(known).toEqual(await inspectWebhookUrl(url, { allowPrivate, resolve: failingResolver }));
    }
  });

  test("leaves a host name to resolveAndCheck, which resolves it and checks every address", async () => {
    const known = inspectWithoutLookup("https://Hooks.Example.com./in", { allowPrivate: false });
    if (!("lookup" in known)) throw new Error("a name was decided without DNS");
    expect(known.lookup).toBe("hooks.example.com");
    const asked: string[] = [];
    const verdict = await resolveAndCheck(known, {
      allowPrivate: false,
      resolve: async (host) => (asked.push(host), ["93.184.216.34", "10.0.0.1"]),
    });
    expect(asked).toEqual(["hooks.example.com"]);
    expect(verdict).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await resolveAndCheck(known, { allowPrivate: false, resolve: publicResolver })).toMatchObject({
      ok: true,
      addresses: ["93.184.216.34"],
    });
    expect(await resolveAndCheck(known, { allowPrivate: false, resolve: failingResolver })).toMatchObject({
      ok: false,
      reason: "unresolvable",
    });
  });
});

describe("isForbiddenAddress", () => {
  test("separates public unicast from every forbidden class", () => {
    expect(isForbiddenAddress("93.184.216.34")).toBe(false);
    expect(isForbiddenAddress("2606:2800:220:1:248:1893:25c8:1946")).toBe(false);
    for (const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.0.1",
      "192.168.0.1",
      "169.254.1.1",
      "100.127.255.254",
      "0.0.0.0",
      "::",
      "::1",
      "fc00::1",
      "fe80::1%eth0",
      "::ffff:192.168.0.1",
    ]) {
      expect(isForbiddenAddress(ip)).toBe(true);
    }
  });

  test("fails closed on text that is not an address", () => {
    expect(isForbiddenAddress("example.com")).toBe(true);
    expect(isForbiddenAddress("")).toBe(true);
  });
});

describe("cachedResolver (the default resolver: DNS answers kept DNS_CACHE_MS)", () => {
  function fakeDns(answers: Record<string, string[]>) {
    const asked: string[] = [];
    const resolve: ResolveHost = async (host) => {
      asked.push(host);
      const addresses = answers[host];
      if (addresses === undefined) throw new Error(`ENOTFOUND ${host}`);
      return addresses;
    };
    return { asked, resolve };
  }

  test("a host is asked once within the TTL and again once it has passed", async () => {
    let now = 1_000;
    const dns = fakeDns({ "hooks.example.com": ["93.184.216.34"] });
    const resolve = cachedResolver(dns.resolve, 5_000, () => now);
    for (let i = 0; i < 3; i++) expect(await resolve("hooks.example.com")).toEqual(["93.184.216.34"]);
    now += 4_999;
    await resolve("hooks.example.com");
    expect(dns.asked).toEqual(["hooks.example.com"]);
    now += 1;
    await resolve("hooks.example.com");
    expect(dns.asked).toEqual(["hooks.example.com", "hooks.example.com"]);
  });

  test("a name re-pointed at a private address is refused at send time once its kept answer expires", async () => {
    let now = 0;
    let answer = ["93.184.216.34"];
    const resolve = cachedResolver(
      async () => answer,
      5_000,
      () => now,
    );
    const check = () => inspectWebhookUrl("https://hooks.example.com/x", { allowPrivate: false, resolve });
    expect(await check()).toMatchObject({ ok: true, addresses: ["93.184.216.34"] });
    answer = ["10.0.0.7"];
    // Within the TTL the connection still goes to the public address that was checked.
    now = 4_000;
    expect(await check()).toMatchObject({ ok: true, addresses: ["93.184.216.34"] });
    now = 5_000;
    expect(await check()).toMatchObject({ ok: false, reason: "forbidden" });
  });

  test("a failed or empty answer is not kept: the next call asks again", async () => {
    const dns = fakeDns({ "empty.example.com": [] });
    const resolve = cachedResolver(dns.resolve, 5_000, () => 0);
    await expect(resolve("missing.example.com")).rejects.toThrow("ENOTFOUND");
    await expect(resolve("missing.example.com")).rejects.toThrow("ENOTFOUND");
    expect(await resolve("empty.example.com")).toEqual([]);
    expect(await resolve("empty.example.com")).toEqual([]);
    expect(dns.asked).toEqual(["missing.example.com", "missing.example.com", "empty.example.com", "empty.example.com"]);
  });

  test("callers get their own copy, and the cache stays bounded", async () => {
    const dns = fakeDns({});
    const resolve = cachedResolver(
      async (host) => (dns.asked.push(host), ["93.184.216.34"]),
      5_000,
      () => 0,
    );
    const first = await resolve("a.example.com");
    first.push("10.0.0.1");
    expect(await resolve("a.example.com")).toEqual(["93.184.216.34"]);
    for (let i = 0; i < DNS_CACHE_MAX_HOSTS + 5; i++) await resolve(`h${i}.example.com`);
    dns.asked.length = 0;
    // Past the bound the cache started again empty: the first host is asked again.
    await resolve("a.example.com");
    expect(dns.asked).toEqual(["a.example.com"]);
  });
});
