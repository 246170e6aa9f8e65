// Every word is indexed behind its tenant's key, so a word common in another tenant's chats never
// slows a search. PostgreSQL's parley_search_terms (migrations 0008, 0016) makes the same terms.

/** Above every id and term: the upper end of a range (text compares by bytes; COLLATE "C" on PostgreSQL). */
export const TOP = "\u{10FFFF}";

/** The tenant's key in its terms: the id without `ten_`, letters and digits only, lowercase. */
export const tenantKey = (tenantId: string): string =>
  tenantId
    .slice(4)
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase();

/** Runs of letters and digits after NFKC and lowercasing. */
export const textWords = (text: string): string[] =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);

/** What SQLite's FTS5 tables hold for a text of the tenant. */
export const indexedTerms = (tenantId: string, text: string): string => {
  const key = tenantKey(tenantId);
  return [...new Set(textWords(text))].map((word) => key + word).join(" ");
};
