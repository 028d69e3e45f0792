import type { ReactNode } from 'react';

export interface Column<Row> {
  /** The header text; also what a screen reader announces for each cell of the column. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Extra class of every cell of the column (e.g. `nowrap`, `mono small`, `num`). */
  className?: string;
}

/**
 * One table for every list page: a header row, the rows, a one-line empty state once loaded,
 * and a "more" button when the list has a further keyset page.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  loaded,
  empty,
  caption,
  more,
  stackOnPhones = false,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** False while the first page loads: the empty line waits for an answer. */
  loaded: boolean;
  empty: string;
  /** A visually hidden caption naming the table, for tables without a heading right above. */
  caption?: string;
  more?: { label: string; onMore: () => void; hasMore: boolean; loading?: boolean };
  /** On a narrow screen, each row as a block of labelled cells instead of a wide table to scroll. */
  stackOnPhones?: boolean;
}) {
  return (
    <>
      {/* A named table is a focusable region, so a keyboard can scroll it where it is wider than the screen. */}
      <div
        className={stackOnPhones ? 'card table-card stack-on-phones' : 'card table-card'}
        {...(caption ? { role: 'region', 'aria-label': caption, tabIndex: 0 } : {})}
      >
        <table>
          {caption ? <caption className="visually-hidden">{caption}</caption> : null}
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column.header}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && loaded ? (
              <tr>
                <td colSpan={columns.length} className="muted">
                  {empty}
                </td>
              </tr>
            ) : null}
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header} className={column.className} data-label={column.header}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more?.hasMore ? (
        <button type="button" className="button secondary" disabled={more.loading} onClick={more.onMore}>
          {more.label}
        </button>
      ) : null}
    </>
  );
}
