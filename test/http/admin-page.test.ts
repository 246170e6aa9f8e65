import { afterEach, describe, expect, test } from "bun:test";
import { buildTestApp, type TestContext } from "../helpers.ts";

let context: TestContext;
afterEach(() => context?.close());

const sha256Base64 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("base64");

describe("GET /admin", () => {
  test("serves the admin page as HTML under a strict CSP without any inline script", async () => {
    context = buildTestApp();
    const response = await context.request("GET", "/admin");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");

    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((match) => match[1]?.trim())).toEqual(['src="/admin.js" defer']);
    expect(scripts.every((match) => match[2] === "")).toBe(true);
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? "");
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`'sha256-${sha256Base64(styles[0] ?? "")}'`);
  });

  test("labels every form control and gives every table column a header", async () => {
    context = buildTestApp();
    const html = await (await context.request("GET", "/admin")).text();
    expect(html).toContain('role="tablist"');
    expect(html.match(/role="tab"/g)).toHaveLength(11);
    expect(html).toMatch(
      /<nav role="tablist"[^>]*><button type="button" role="tab" id="tab-overview" aria-controls="panel-overview" aria-selected="true"/,
    );
    for (const [, id] of html.matchAll(/<(?:input|select|textarea)\b[^>]*\bid="([^"]+)"/g)) {
      const wrapped = new RegExp(
        `<label[^>]*>[^<]*(?:<[^/][^>]*>[^<]*)*<(?:input|select|textarea)\\b[^>]*id="${id}"`,
      ).test(html);
      expect(wrapped || html.includes(`for="${id}"`)).toBe(true);
    }
    expect(html).toContain('<th scope="col">Webhook id</th>');
  });
});

describe("GET /admin.js", () => {
  test("is the bundled script as JavaScript, small, and writes data as text only", async () => {
    context = buildTestApp();
    const response = await context.request("GET", "/admin.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-z]+"$/);
    const code = await response.text();
    expect(code).toContain("/webhooks/dead-letters");
    expect(code).toContain("sessionStorage");
    expect(code).not.toContain("innerHTML");
    // Credentials never reach localStorage: it holds only the sound setting and whether a session cookie may exist;
    // the key and the chosen tenant live in the tab's sessionStorage.
    expect([...new Set(code.match(/parley\.admin\.\w+/g))].sort()).toEqual([
      "parley.admin.apiKey",
      "parley.admin.signedIn",
      "parley.admin.sound",
      "parley.admin.tenant",
    ]);
    expect(code).toMatch(/sessionStorage\.setItem\("parley\.admin\.apiKey"/);
    expect(code).not.toMatch(/^\s*import\s/m);
    // The Overview charts are drawn by the page itself: no chart library from a CDN.
    expect(code).toContain("createElementNS");
    expect(code).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    // One small request for the whole page (sign-in, team, the live inbox with canned replies and search,
    // the test set, knowledge sources, the rule editor, the charts): staff load it, not visitors, so its
    // bound is looser than the widget's 12 KB, but it still fails a page that pulls in a library.
    expect(Bun.gzipSync(code).length).toBeLessThan(24 * 1024);
  });

  test("answers 304 to a matching If-None-Match", async () => {
    context = buildTestApp();
    const etag = (await context.request("GET", "/admin.js")).headers.get("etag") ?? "";
    const again = await context.request("GET", "/admin.js", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });
});
