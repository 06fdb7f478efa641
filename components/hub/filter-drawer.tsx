'use client';
// OperatorHub's facets on a narrow screen: a modal drawer from the side (the native <dialog>, so
// focus stays in it, Escape closes it and the page beneath is inert), opened by a "Filters"
// button that says how many facet values are chosen.
import { useEffect, useRef, type ReactNode } from 'react';

const DRAWER_ID = 'hub-filter-drawer';

type ButtonProps = { active: number; open: boolean; onOpen: () => void; className?: string };

export function FiltersButton({ active, open, onOpen, className = '' }: ButtonProps) {
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      aria-controls={DRAWER_ID}
      aria-expanded={open}
      onClick={onOpen}
      className={`inline-flex items-center gap-2 rounded border border-slate-300 bg-white px-3 py-1.5 text-sm
        font-medium text-slate-800 ${className}`}
    >
      Filters
      {active > 0 && (
        <span className="rounded-full bg-sky-700 px-2 text-xs font-semibold text-white">
          {active}
          <span className="sr-only"> active</span>
        </span>
      )}
    </button>
  );
}

type DrawerProps = {
  open: boolean;
  onClose: () => void;
  /** How many operators the chosen filters show, for the button that closes the drawer. */
  shown: number;
  onClear: () => void;
  /** The facets; rendered only while open, so a keystroke never renders a closed drawer. */
  children: ReactNode;
};

export function FilterDrawer({ open, onClose, shown, onClear, children }: DrawerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      id={DRAWER_ID}
      aria-labelledby={`${DRAWER_ID}-title`}
      // Escape, and the close buttons below, all end here.
      onClose={onClose}
      // A click on the backdrop lands on the dialog itself; one inside lands on its content.
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      className="m-0 ml-auto h-dvh max-h-none w-full max-w-sm bg-white p-0 text-slate-900 shadow-xl
        backdrop:bg-slate-900/60"
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
          <h2 id={`${DRAWER_ID}-title`} className="text-lg font-semibold">
            Filters
          </h2>
          <button
            type="button"
            onClick={onClose}
            className="rounded px-2 py-1 text-sm font-medium text-sky-800
            underline"
          >
            Close
          </button>
        </div>
        <div className="flex-1 overflow-y-auto px-4 py-4">{open && children}</div>
        <div className="flex items-center gap-3 border-t border-slate-200 px-4 py-3">
          <button type="button" onClick={onClear} className="text-sm text-sky-800 underline">
            Clear filters
          </button>
          <button
            type="button"
            onClick={onClose}
            className="ml-auto rounded bg-sky-700 px-4 py-1.5 text-sm font-semibold text-white"
          >
            Show {shown} {shown === 1 ? 'operator' : 'operators'}
          </button>
        </div>
      </div>
    </dialog>
  );
}
