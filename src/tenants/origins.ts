import { invalidField } from "../lib/validate.ts";

/**
 * Normalizes a list of allowed widget origins to `scheme://host[:port]`. `null` and paths are
 * refused: a sandboxed iframe sends `Origin: null`, which must never match an allow-list.
 */
export function normalizeOrigins(origins: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of origins) {
    const text = raw.trim();
    if (!text) continue;
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw invalidField("origins", `${text} is not an origin such as https://example.com`);
    }
    if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.origin === "null") {
      throw invalidField("origins", `${text} must be an http(s) origin`);
    }
    out.add(parsed.origin);
  }
  return [...out];
}
