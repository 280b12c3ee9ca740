import type { ReactNode } from "react";
import { EmptyState } from "./empty-state";

export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Numbers line up on the right. */
  align?: "right";
  /** Extra classes for the column's cells (wrapping, fonts, colours). */
  className?: string | ((row: T) => string);
}

/**
 * The dashboard's one table: a header row, one row per item, and the page's empty message instead of an
 * empty table. On a narrow screen it scrolls sideways with its first (key) column pinned; the scrolling box
 * takes keyboard focus, so arrow keys scroll it too.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  empty,
  label = "Table",
}: {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  empty: ReactNode;
  /** The scrolling box's accessible name ("Top bots"). */
  label?: string;
}) {
  if (rows.length === 0) return <EmptyState>{empty}</EmptyState>;
  const cellClass = (col: Column<T>, row: T) => {
    const extra = typeof col.className === "function" ? col.className(row) : col.className;
    return [col.align === "right" ? "text-right" : "", extra ?? ""].filter(Boolean).join(" ") || undefined;
  };
  return (
    // biome-ignore lint/a11y: a scrolling region must be reachable by keyboard, named as a group (not a landmark)
    <div className="table-scroll" role="group" aria-label={label} tabIndex={0}>
      <table className="data-table">
        <thead>
          <tr>
            {columns.map((col, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per page and never reorder
              <th key={i} scope="col" className={col.align === "right" ? "text-right" : undefined}>
                {col.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={rowKey(row, r)}>
              {columns.map((col, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed per page and never reorder
                <td key={i} className={cellClass(col, row)}>
                  {col.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
