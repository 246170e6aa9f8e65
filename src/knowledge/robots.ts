/**
 * robots.txt as crawlers read it (RFC 9309), enough for a site's own pages: the group for our
 * user agent ("parley") or else `*`, its Allow and Disallow prefixes (with `*` and a final `$`),
 * the longest match deciding and Allow winning a tie. No file, or one that cannot be fetched,
 * allows everything.
 */

export const ROBOTS_AGENT = "parley";

interface Rule {
  allow: boolean;
  pattern: RegExp;
  length: number;
}

const toPattern = (path: string): RegExp => {
  const anchored = path.endsWith("$");
  const body = (anchored ? path.slice(0, -1) : path).replace(/[.+?^{}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`);
};

/** The rules that apply to us, as a function of a URL's path (with its query). */
export function parseRobots(text: string): (pathAndQuery: string) => boolean {
  const groups = new Map<string, Rule[]>();
  let agents: string[] = [];
  let inRules = false;
  for (const raw of text.split(/\r?\n/).slice(0, 5_000)) {
    const line = raw.replace(/#.*/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === "user-agent") {
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.toLowerCase());
      for (const agent of agents) if (!groups.has(agent)) groups.set(agent, []);
    } else if ((field === "allow" || field === "disallow") && agents.length > 0) {
      inRules = true;
      // An empty Disallow allows everything: no rule.
      if (value === "") continue;
      for (const agent of agents) groups.get(agent)?.push({ allow: field === "allow", pattern: toPattern(value), length: value.length });
    }
  }
  const rules = groups.get(ROBOTS_AGENT) ?? groups.get("*") ?? [];
  return (pathAndQuery) => {
    let best: Rule | null = null;
    for (const rule of rules) {
      if (!rule.pattern.test(pathAndQuery)) continue;
      if (!best || rule.length > best.length || (rule.length === best.length && rule.allow)) best = rule;
    }
    return best?.allow ?? true;
  };
}
