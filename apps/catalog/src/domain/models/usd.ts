/**
 * Prices in the tables are written in dollars so a reviewer can compare them with a vendor's price page;
 * `usd()` turns them into the integer micro-USD the catalogue stores (DESIGN.md §4).
 */
export function usd(dollars: number): number {
  return Math.round(dollars * 1_000_000);
}
