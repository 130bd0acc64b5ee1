/**
 * The cut every keyset list makes: it reads `limit + 1` rows, answers the first `limit`, and
 * when the extra row exists the cursor of the next page is the last answered row's position.
 */
export function cutPage<R, C>(rows: R[], limit: number, cursorOf: (last: R) => C): { rows: R[]; next?: C } {
  if (rows.length <= limit) return { rows };
  const page = rows.slice(0, limit);
  return { rows: page, next: cursorOf(page[page.length - 1]) };
}
