/** A page of a cursor-paged list: the cursor is the id of the last row, rows are fetched `limit + 1`. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** Turns `limit + 1` fetched rows into a page; the extra row only says that there is more. */
export function toPage<Row, View>(
  rows: Row[],
  limit: number,
  idOf: (row: Row) => string,
  view: (row: Row) => View,
): Page<View> {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data: data.map(view), next_cursor: rows.length > limit && last !== undefined ? idOf(last) : null };
}
