/**
 * `compute` over one text, remembering its last text and answer: for pure tests a chat turn
 * asks twice about the same text (its question, then the search or the booking check).
 */
export function rememberLast<T>(compute: (text: string) => T): (text: string) => T {
  let last: { text: string; value: T } | null = null;
  return (text) => {
    if (last === null || last.text !== text) last = { text, value: compute(text) };
    return last.value;
  };
}
