/**
 * The page of a back-office list a query string asks for. Every list reads its page here, so a
 * crafted `?page=` (`1e300`, twenty digits, `-1`, `abc`) opens page 1 instead of asking the
 * database for an offset it cannot hold.
 */

/** Far beyond any list's last page, and small enough that its offset is an ordinary integer. */
export const maxListPage = 100_000;

export function listPage(value: string | number | null | undefined): number {
  const page = typeof value === "number" ? value : /^\s*\d{1,6}\s*$/.test(value ?? "") ? Number(value) : Number.NaN;
  return Number.isSafeInteger(page) && page >= 1 && page <= maxListPage ? page : 1;
}
