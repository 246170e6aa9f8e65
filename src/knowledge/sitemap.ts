import { Parser } from "htmlparser2";
import type { Deps } from "../deps.ts";
import { decodeBody, fetchFailed, fetchPage, type FetchedPage } from "./fetch-page.ts";
import { parseRobots } from "./robots.ts";

/**
 * A sitemap's pages (sitemaps.org): a `<urlset>` lists pages, a `<sitemapindex>` lists more
 * sitemaps, read to MAX_SITEMAP_DEPTH levels and MAX_SITEMAP_FILES files. Only pages of the
 * sitemap's own site (scheme, host and port) are taken, as search engines do, and only those
 * its robots.txt lets us read; every fetch goes through the same SSRF guard as a single URL.
 */

export const MAX_SITEMAP_DEPTH = 2;
export const MAX_SITEMAP_FILES = 20;
/** Pages a sitemap source imports at most, whatever the plan allows. */
export const MAX_SITEMAP_PAGES = 500;
/** Entries read from one file: the parse stops there (sitemaps.org allows 50,000). */
const MAX_ENTRIES_PER_FILE = 5_000;
/**
 * A sitemap nests three elements deep. The XML tokenizer searches its stack of open elements on
 * every close tag, so a file of thousands of nested elements would cost it quadratic time: past
 * this depth the file is refused instead (as the HTML reader does, html-to-text.ts).
 */
const MAX_XML_NESTING = 32;

export interface SitemapEntries {
  kind: "urlset" | "sitemapindex" | null;
  locations: string[];
}

/** The `<loc>` of each `<url>` or `<sitemap>`, in order; a file that is neither has kind null. */
export function parseSitemap(xml: string): SitemapEntries {
  let kind: SitemapEntries["kind"] = null;
  const locations: string[] = [];
  let inLoc = false;
  let loc = "";
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (++depth > MAX_XML_NESTING)
          throw fetchFailed(`The sitemap nests elements more than ${MAX_XML_NESTING} levels deep.`);
        const local = name.slice(name.indexOf(":") + 1).toLowerCase();
        if (kind === null && (local === "urlset" || local === "sitemapindex")) kind = local;
        if (local === "loc") {
          inLoc = true;
          loc = "";
        }
      },
      ontext(text) {
        if (inLoc) loc += text;
      },
      onclosetag(name) {
        depth--;
        if (name.slice(name.indexOf(":") + 1).toLowerCase() !== "loc" || !inLoc) return;
        inLoc = false;
        if (locations.length < MAX_ENTRIES_PER_FILE && loc.trim() !== "") locations.push(loc.trim());
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return { kind, locations };
}

export type SkippedPage = { url: string; reason: string };

export interface SitemapPages {
  pages: string[];
  skipped: SkippedPage[];
  /** The root sitemap's validators, for the next conditional request. */
  root: { etag: string | null; lastModified: string | null };
}

/** Same scheme, host and port: a sitemap may only speak for its own site. */
const sameSite = (url: string, site: URL): boolean => {
  try {
    return new URL(url).origin === site.origin;
  } catch {
    return false;
  }
};

async function robotsFor(deps: Deps, site: URL): Promise<(path: string) => boolean> {
  try {
    const robots = await fetchPage(deps, `${site.origin}/robots.txt`, { accept: "text/plain", maxBytes: 512 * 1024 });
    return robots.notModified ? () => true : parseRobots(decodeBody(robots.body, robots.contentType));
  } catch {
    return () => true;
  }
}

/**
 * Every page the sitemap at `url` lists, up to `limit`, or null when the root sitemap answered
 * 304 to the validators given (nothing to read). A root that is not a sitemap is a 422; a child
 * sitemap that fails is skipped with its reason.
 */
export async function collectSitemapPages(
  deps: Deps,
  url: string,
  limit: number,
  validators: { etag: string | null; lastModified: string | null },
): Promise<SitemapPages | null> {
  const site = new URL(url);
  const root = await fetchPage(deps, url, { accept: "application/xml, text/xml;q=0.9", ...validators });
  if (root.notModified) return null;
  const allowed = await robotsFor(deps, site);
  const pages: string[] = [];
  const skipped: SkippedPage[] = [];
  const seen = new Set<string>();
  let files = 0;
  const readFile = async (
    page: Extract<FetchedPage, { notModified: false }>,
    depth: number,
  ): Promise<SitemapEntries["kind"]> => {
    files++;
    const entries = parseSitemap(decodeBody(page.body, page.contentType));
    if (entries.kind === null) throw fetchFailed(`${page.url.href} is not a sitemap (no <urlset> or <sitemapindex>).`);
    for (const location of entries.locations) {
      if (seen.has(location)) continue;
      seen.add(location);
      if (!sameSite(location, site)) skipped.push({ url: location, reason: "another site than the sitemap's" });
      else if (entries.kind === "sitemapindex") await readChild(location, depth + 1);
      else if (!allowed(new URL(location).pathname + new URL(location).search))
        skipped.push({ url: location, reason: "robots.txt disallows it" });
      else if (pages.length >= limit) skipped.push({ url: location, reason: `over the limit of ${limit} pages` });
      else pages.push(location);
    }
    return entries.kind;
  };
  const readChild = async (location: string, depth: number): Promise<void> => {
    if (depth > MAX_SITEMAP_DEPTH)
      return void skipped.push({ url: location, reason: `sitemaps nested deeper than ${MAX_SITEMAP_DEPTH} levels` });
    if (files >= MAX_SITEMAP_FILES)
      return void skipped.push({ url: location, reason: `over the limit of ${MAX_SITEMAP_FILES} sitemap files` });
    try {
      const child = await fetchPage(deps, location, { accept: "application/xml, text/xml;q=0.9" });
      if (!child.notModified) await readFile(child, depth);
    } catch (error) {
      skipped.push({ url: location, reason: error instanceof Error ? error.message : String(error) });
    }
  };
  const rootKind = await readFile(root, 1);
  // An index answering 304 says nothing of the sitemaps it lists: only a urlset's validators are kept.
  const kept =
    rootKind === "urlset" ? { etag: root.etag, lastModified: root.lastModified } : { etag: null, lastModified: null };
  return { pages, skipped, root: kept };
}
