import { describe, expect, test } from "bun:test";
import { parseSitemap } from "../../src/knowledge/sitemap.ts";
import { parseRobots, wildcardMatch } from "../../src/knowledge/robots.ts";

describe("parseSitemap", () => {
  test("reads the locations of a urlset and of a sitemap index, with entities and namespaces", () => {
    expect(
      parseSitemap(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.example/?a=1&amp;b=2 </loc><lastmod>2026-01-01</lastmod></url></urlset>`,
      ),
    ).toEqual({
      kind: "urlset",
      locations: ["https://a.example/?a=1&b=2"],
    });
    expect(
      parseSitemap(
        `<sm:sitemapindex xmlns:sm="x"><sm:sitemap><sm:loc>https://a.example/one.xml</sm:loc></sm:sitemap></sm:sitemapindex>`,
      ),
    ).toEqual({ kind: "sitemapindex", locations: ["https://a.example/one.xml"] });
    expect(parseSitemap("<html><body>not a sitemap</body></html>").kind).toBeNull();
  });

  test("a file nesting elements thousands deep is refused at once instead of stalling the parser", () => {
    const hostile = `<urlset>${"<url>".repeat(200_000)}`;
    expect(() => parseSitemap(hostile)).toThrow("The sitemap nests elements more than 32 levels deep.");
  });
});

describe("robots.txt", () => {
  const robots = parseRobots(
    [
      "User-agent: *",
      "Disallow: /private",
      "Allow: /private/open",
      "Disallow: /*.pdf$",
      "",
      "User-agent: other",
      "Disallow: /",
    ].join("\n"),
  );

  test("the longest matching rule of our group decides; Allow wins a tie; $ anchors the end", () => {
    expect(robots("/prices")).toBe(true);
    expect(robots("/private/staff")).toBe(false);
    expect(robots("/private/open/hours")).toBe(true);
    expect(robots("/menu.pdf")).toBe(false);
    expect(robots("/menu.pdf?v=2")).toBe(true);
    expect(parseRobots("User-agent: parley\nDisallow: /\n\nUser-agent: *\nDisallow:")("/x")).toBe(false);
    expect(parseRobots("")("/anything")).toBe(true);
  });

  test("a rule of many wildcards is matched without backtracking blow-up", () => {
    const pattern = `${"*a".repeat(40)}*b`;
    expect(wildcardMatch(pattern, "a".repeat(2_000))).toBe(false);
    expect(wildcardMatch(pattern, `${"a".repeat(40)}b`)).toBe(true);
    expect(parseRobots(`User-agent: *\nDisallow: /${"*a".repeat(200)}$`)(`/${"a".repeat(400)}b`)).toBe(true);
  });
});
