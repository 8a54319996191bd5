import type { ComponentChildren, HTMLAttributes } from 'preact';
import { Loaded, type Load } from './common';

/** A titled part of a page; tests and screen readers find it by `aria-labelledby` the heading's id. */
export function Section({ id, title, children }: { id: string; title: ComponentChildren; children: ComponentChildren }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A section whose content waits for one load: a status line while loading, an alert on error. */
export function LoadedSection<T>({ id, title, load, label, children }: { id: string; title: string; load: Load<T>; label: string; children: (data: T) => ComponentChildren }) {
  return (
    <Section id={id} title={title}>
      <Loaded load={load} label={label}>
        {children}
      </Loaded>
    </Section>
  );
}

export interface Column<T> {
  title: ComponentChildren;
  cell: (row: T, index: number) => ComponentChildren;
  /** The cell that names its row: `<th scope="row">` instead of `<td>`. */
  rowHeader?: boolean;
}

interface TableProps<T> {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Attributes of each row's `<tr>`, such as the class or data attribute a test finds it by. */
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string };
  caption?: string;
  /** Shown muted in place of the table when there are no rows. */
  empty?: ComponentChildren;
}

/** One table per list: a header row of column titles, then a row per item. */
export function Table<T>({ columns, rows, rowKey, rowProps, caption, empty }: TableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <p class="muted">{empty}</p>;
  // A wide table scrolls inside its own box; the page never scrolls sideways.
  return (
    <div class="scroll">
    <table>
      {caption === undefined ? null : <caption class="sr-only">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col">
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((column, i) =>
              column.rowHeader ? (
                <th key={i} scope="row">
                  {column.cell(row, index)}
                </th>
              ) : (
                <td key={i}>{column.cell(row, index)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}
