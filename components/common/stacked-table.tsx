// A table that turns into stacked rows where it has little room: below 48rem of its own width (a
// container query, so a table beside a sidebar stacks too) each row is a block and each cell shows
// its column's name before its value ("Status  Succeeded"), so nothing scrolls sideways. The
// column name is CSS generated content (not in the DOM text), and explicit ARIA roles keep the
// table's semantics, which display:block would otherwise drop.
import type { ReactNode } from 'react';

export interface StackedColumn {
  label: string;
  /** Shown to screen readers only (an actions column). */
  hidden?: boolean;
}

interface TableProps {
  label: string;
  columns: readonly (string | StackedColumn)[];
  children: ReactNode;
  className?: string;
}

export function StackedTable({ label, columns, children, className = '' }: TableProps) {
  return (
    <div className="@container">
      <table role="table" aria-label={label} className={`w-full border-collapse text-sm @max-3xl:block ${className}`}>
        <thead role="rowgroup" className="@max-3xl:sr-only">
          <tr role="row" className="border-b border-slate-300 text-left text-slate-600">
            {columns.map((c) => {
              const col = typeof c === 'string' ? { label: c } : c;
              return (
                <th key={col.label} role="columnheader" scope="col" className="py-1.5 pr-3 font-semibold last:pr-0">
                  {col.hidden ? <span className="sr-only">{col.label}</span> : col.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody role="rowgroup" className="@max-3xl:block">
          {children}
        </tbody>
      </table>
    </div>
  );
}

export function StackedRow({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <tr role="row" className={`border-b border-slate-200 align-top @max-3xl:block @max-3xl:py-2 ${className}`}>
      {children}
    </tr>
  );
}

// The label keeps one size and colour whatever the cell's own text (a small time, a mono field).
const LABELLED = [
  '@max-3xl:before:w-28 @max-3xl:before:shrink-0 @max-3xl:before:content-[attr(data-label)]',
  '@max-3xl:before:font-sans @max-3xl:before:text-sm @max-3xl:before:font-medium @max-3xl:before:text-slate-600',
].join(' ');
const CELL = 'py-1.5 pr-3 last:pr-0 @max-3xl:flex @max-3xl:gap-3 @max-3xl:py-0.5 @max-3xl:pr-0';

interface CellProps {
  label?: string;
  children?: ReactNode;
  className?: string;
}

/** A cell; `label` is its column's name, shown before the value when the table is stacked. */
export function StackedCell({ label, children, className = '' }: CellProps) {
  return (
    <td role="cell" data-label={label} className={`${CELL} ${label ? LABELLED : ''} ${className}`}>
      <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">{children}</div>
    </td>
  );
}
