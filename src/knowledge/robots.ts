/**
 * robots.txt as crawlers read it (RFC 9309), enough for a site's own pages: the group for our
 * user agent ("parley") or else `*`, its Allow and Disallow prefixes (with `*` and a final `$`),
 * the longest match deciding and Allow winning a tie. No file, or one that cannot be fetched,
 * allows everything.
 */

export const ROBOTS_AGENT = "parley";

interface Rule {
  allow: boolean;
  /** The path with `*` wildcards, matched in full: a rule without a final `$` ends in `*` (a prefix). */
  pattern: string;
  length: number;
}

/**
 * Does `text` match `pattern` (`*` = any run of characters) in full? Greedy, going back only to
 * the last `*`: at most length × length steps. A regular expression built from the file could
 * backtrack exponentially on a line of many wildcards, and the file is the site's to write.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

const toRule = (allow: boolean, value: string): Rule => {
  const anchored = value.endsWith("$");
  const path = (anchored ? value.slice(0, -1) : value).replace(/\*+/g, "*");
  return { allow, pattern: anchored ? path : `${path}*`, length: value.length };
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
      for (const agent of agents) groups.get(agent)?.push(toRule(field === "allow", value.slice(0, 512)));
    }
  }
  const rules = groups.get(ROBOTS_AGENT) ?? groups.get("*") ?? [];
  return (pathAndQuery) => {
    let best: Rule | null = null;
    for (const rule of rules) {
      if (!wildcardMatch(rule.pattern, pathAndQuery)) continue;
      if (!best || rule.length > best.length || (rule.length === best.length && rule.allow)) best = rule;
    }
    return best?.allow ?? true;
  };
}
