import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { acceptsGzip } from "../../src/http/static.ts";
import { buildTestApp, type TestContext } from "../helpers.ts";
import { createTenant } from "../../src/tenants/create-tenant.ts";

const GZIP_BUDGET_BYTES = 12 * 1024;

let context: TestContext;
afterEach(() => context?.close());

describe("GET /widget.js", () => {
  test("serves the built IIFE as cacheable JavaScript with an ETag", async () => {
    context = buildTestApp();
    const response = await context.request("GET", "/widget.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-z]+"$/);
    const code = await response.text();
    expect(code.startsWith("(()=>{")).toBe(true);
    expect(code).toContain("adoptedStyleSheets");
    expect(code).toContain("/widget/session");
    expect(code).toContain("/chatbot/message");
    expect(code).not.toContain("innerHTML");
    expect(code).not.toContain("import ");
  });

  test("its stylesheet shuts out host styles and keeps the phone panel clear of the notch and home indicator", async () => {
    context = buildTestApp();
    const code = await (await context.request("GET", "/widget.js")).text();
    // Inherited host styles reach the host element; only an !important reset inside the shadow tree beats them.
    expect(code).toContain(":host{all:initial!important}");
    for (const side of ["top", "bottom", "left", "right"]) expect(code).toContain(`env(safe-area-inset-${side}`);
  });

  test("answers 304 to a matching If-None-Match", async () => {
    context = buildTestApp();
    const etag = (await context.request("GET", "/widget.js")).headers.get("etag") ?? "";
    const again = await context.request("GET", "/widget.js", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("stays within the 12 KB gzipped budget", async () => {
    context = buildTestApp();
    const code = await (await context.request("GET", "/widget.js")).text();
    const gzipped = Bun.gzipSync(code).length;
    console.log(`widget.js: ${code.length} bytes, ${gzipped} bytes gzipped (budget ${GZIP_BUDGET_BYTES})`);
    expect(gzipped).toBeLessThanOrEqual(GZIP_BUDGET_BYTES);
  });
});

describe("GET /", () => {
  test("without a demo tenant explains how to create one and shows the snippet for the public URL", async () => {
    context = buildTestApp({ publicUrl: "https://chat.example.com" });
    const response = await context.request("GET", "/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toContain("parley tenant create");
    expect(html).toContain(
      "&lt;script src=&quot;https://chat.example.com/widget.js&quot; data-tenant=&quot;ten_…&quot;",
    );
    expect(html).not.toContain(`<script src="/widget.js"`);
  });

  test("with a demo tenant embeds the widget under a strict CSP with no inline script", async () => {
    context = buildTestApp({ publicUrl: "https://chat.example.com" });
    const tenant = await createTenant(context.deps, { name: "Demo" });
    await context.deps.store.settings.putSetting("demo_tenant_id", tenant.id);
    const response = await context.request("GET", "/");
    const html = await response.text();
    expect(html).toContain(`<script src="/widget.js" data-tenant="${tenant.id}" async></script>`);
    expect(html).toContain(
      `data-tenant=&quot;${tenant.id}&quot; data-branding-url=&quot;https://chat.example.com&quot;`,
    );
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(html.match(/<script[^>]*>[^<]+<\/script>/)).toBeNull();
  });

  test("links the admin page (saying it takes a login or an API key, from any start) and the API reference", async () => {
    context = buildTestApp();
    const html = await (await context.request("GET", "/")).text();
    expect(html).toContain(
      '<a href="/admin">Admin page</a> (sign in with your e-mail and password, or a tenant API key',
    );
    // The binary's `parley serve --demo` seeds it as well as `npm start`.
    expect(html).not.toContain("npm start");
    expect(html).toContain('<a href="/docs">API reference</a>');
  });
});

describe("GET /favicon.ico", () => {
  test("answers 204 instead of a 404 in every visitor's console", async () => {
    const context = buildTestApp();
    const response = await context.request("GET", "/favicon.ico");
    expect(response.status).toBe(204);
    context.close();
  });
});

describe("compressed assets", () => {
  beforeEach(() => {
    context = buildTestApp();
  });
  const assets = ["/widget.js", "/admin.js", "/docs/viewer-init.js"];

  test("each script is sent gzipped to a client that takes gzip, and decompresses to the plain script", async () => {
    for (const path of assets) {
      const plain = await context.request("GET", path);
      const code = await plain.text();
      const gzipped = await context.request("GET", path, { headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(gzipped.headers.get("content-encoding")).toBe("gzip");
      expect(gzipped.headers.get("vary")).toBe("accept-encoding");
      expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzipped.arrayBuffer())))).toBe(code);
      expect(plain.headers.get("content-encoding")).toBeNull();
    }
  });

  test("gzip refused with q=0, or not named, gets the plain script; * names it", () => {
    expect(acceptsGzip("gzip;q=0, br")).toBe(false);
    expect(acceptsGzip("br, deflate")).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("*;q=0.5")).toBe(true);
    expect(acceptsGzip("GZIP;q=0.8")).toBe(true);
  });

  test("the two representations carry different ETags, and each revalidates to 304", async () => {
    const plain = await context.request("GET", "/widget.js");
    const gzipped = await context.request("GET", "/widget.js", { headers: { "accept-encoding": "gzip" } });
    const plainTag = plain.headers.get("etag") ?? "";
    const gzipTag = gzipped.headers.get("etag") ?? "";
    expect(gzipTag).not.toBe(plainTag);
    expect((await context.request("GET", "/widget.js", { headers: { "if-none-match": plainTag } })).status).toBe(304);
    expect(
      (
        await context.request("GET", "/widget.js", {
          headers: { "if-none-match": `W/${gzipTag}, "other"`, "accept-encoding": "gzip" },
        })
      ).status,
    ).toBe(304);
    // A plain ETag does not validate the gzipped representation.
    expect(
      (
        await context.request("GET", "/widget.js", {
          headers: { "if-none-match": plainTag, "accept-encoding": "gzip" },
        })
      ).status,
    ).toBe(200);
  });
});

describe("the script sizes the docs state", () => {
  const kb = (bytes: number) => bytes / 1024;
  const read = (path: string) => Bun.file(new URL(`../../${path}`, import.meta.url)).text();

  test("are the sizes served, to the nearest KB", async () => {
    context = buildTestApp();
    const widget = await (await context.request("GET", "/widget.js")).text();
    const admin = await (await context.request("GET", "/admin.js")).text();
    const stated = [
      [/About (\d+) KB minified, (\d+) KB gzipped/, await read("docs/widget.md"), widget],
      [/minified IIFE \(about (\d+) KB, (\d+) KB gzipped\)/, await read("docs/admin.md"), admin],
    ] as const;
    for (const [pattern, doc, code] of stated) {
      const [, minified, gzipped] = pattern.exec(doc) ?? [];
      expect(Math.abs(Number(minified) - kb(code.length))).toBeLessThanOrEqual(1);
      expect(Math.abs(Number(gzipped) - kb(Bun.gzipSync(code).length))).toBeLessThanOrEqual(1);
    }
    const readme = /one minified IIFE, ~(\d+) KB gzipped/.exec(await read("README.md"))?.[1];
    expect(Math.abs(Number(readme) - kb(Bun.gzipSync(widget).length))).toBeLessThanOrEqual(1);
  });
});
