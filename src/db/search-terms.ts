// The search index's terms, the same on both stores: every word of a tenant's text is indexed
// behind the tenant's key, so a search reads only its own tenant's terms (a word common in
// another tenant's messages never slows it). Words are runs of letters and digits after NFKC
// and lowercasing; PostgreSQL prefixes the lexemes of its own parser with the same key
// (parley_search_terms, migration postgres 0008), their case and accents folded as FTS5 folds
// them (parley_fold_letters, 0016).

/** The tenant's key in its terms: the id without `ten_`, letters and digits only, lowercase. */
export const tenantKey = (tenantId: string): string =>
  tenantId
    .slice(4)
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase();

/** The words of a text as both stores' indexes see them: runs of letters and digits. */
export const textWords = (text: string): string[] =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);

/** What SQLite's FTS5 tables hold for a text of the tenant: each distinct word behind the key. */
export const indexedTerms = (tenantId: string, text: string): string => {
  const key = tenantKey(tenantId);
  return [...new Set(textWords(text))].map((word) => key + word).join(" ");
};
