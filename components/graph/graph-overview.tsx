'use client';
// The overview beneath a long channel's graph: every version as a tick along the version axis
// (the head, the installed and the selected one marked), and the stretch the graph shows as a
// frame. Click or drag to move the graph there; as a slider, the arrow keys move it one version,
// Page Up/Down a view's width, Home/End to the oldest and the newest.
import { useMemo, useRef } from 'react';
import { drawingBounds, type Drawing } from '@/lib/hub/graph-drawing';

interface Props {
  drawing: Drawing;
  /** The model-space x range the graph shows. */
  view: { x1: number; x2: number };
  selected?: string;
  /** Centre the graph on this model-space x. */
  onMove: (x: number) => void;
}

const versionOf = (label: string) => label.split('\n')[0]!;

export function GraphOverview({ drawing, view, selected, onMove }: Props) {
  const strip = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const b = useMemo(() => drawingBounds(drawing), [drawing]);
  const span = Math.max(1, b.x2 - b.x1);
  const pct = (x: number) => `${((Math.min(b.x2, Math.max(b.x1, x)) - b.x1) / span) * 100}%`;
  const byX = useMemo(() => [...drawing.nodes].sort((a, c) => a.x - c.x), [drawing]);
  // The ticks change with the drawing and the selection, not while the graph pans.
  const ticks = useMemo(() => {
    const at = (x: number) => `${((x - b.x1) / Math.max(1, b.x2 - b.x1)) * 100}%`;
    return byX.map((n) => {
      const head = n.classes.includes('head');
      const installed = n.classes.includes('installed');
      const mark =
        n.id === selected
          ? 'h-3 w-3 bg-sky-600'
          : installed
            ? 'h-3 w-3 bg-sky-900'
            : head
              ? 'h-3 w-3 bg-emerald-700'
              : n.classes.includes('never')
                ? 'h-1.5 w-1.5 bg-slate-300'
                : 'h-1.5 w-1.5 bg-slate-500';
      return (
        <span
          key={n.id}
          aria-hidden="true"
          className={`absolute -translate-x-1/2 -translate-y-1/2 rounded-full ${mark}`}
          style={{ left: at(n.x), top: n.y > 0 ? '75%' : '40%' }}
        />
      );
    });
  }, [byX, b, selected]);
  const inView = byX.filter((n) => n.x >= view.x1 && n.x <= view.x2);
  const centre = (view.x1 + view.x2) / 2;
  // The version nearest the middle of the view: the slider's value.
  let at = 0;
  byX.forEach((n, i) => {
    if (Math.abs(n.x - centre) < Math.abs(byX[at]!.x - centre)) at = i;
  });
  const xs = [...new Set(byX.map((n) => n.x))];
  const step = xs.length > 1 ? (xs.at(-1)! - xs[0]!) / (xs.length - 1) : 1;
  const width = view.x2 - view.x1;
  const first = byX[0];
  const last = byX.at(-1);
  const shown = inView.length
    ? `${versionOf(inView[0]!.label)} to ${versionOf(inView.at(-1)!.label)} shown, ${inView.length} of ${drawing.nodes.length} versions`
    : `no version shown, ${drawing.nodes.length} versions`;

  const moveTo = (clientX: number) => {
    const r = strip.current?.getBoundingClientRect();
    if (!r || r.width === 0) return;
    onMove(b.x1 + ((clientX - r.left) / r.width) * span);
  };
  const onKey = (e: React.KeyboardEvent) => {
    const to: Record<string, number> = {
      ArrowLeft: centre - step,
      ArrowDown: centre - step,
      ArrowRight: centre + step,
      ArrowUp: centre + step,
      PageDown: centre - width,
      PageUp: centre + width,
      Home: b.x1 + width / 2,
      End: b.x2 - width / 2,
    };
    if (!(e.key in to)) return;
    e.preventDefault();
    onMove(Math.min(b.x2, Math.max(b.x1, to[e.key]!)));
  };

  return (
    <div className="text-xs text-slate-600">
      <div
        ref={strip}
        role="slider"
        tabIndex={0}
        aria-label="Overview of every version: moves the graph"
        aria-orientation="horizontal"
        aria-valuemin={1}
        aria-valuemax={byX.length}
        aria-valuenow={at + 1}
        aria-valuetext={shown}
        onKeyDown={onKey}
        onPointerDown={(e) => {
          dragging.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          moveTo(e.clientX);
        }}
        onPointerMove={(e) => dragging.current && moveTo(e.clientX)}
        onPointerUp={() => (dragging.current = false)}
        onPointerCancel={() => (dragging.current = false)}
        className="relative h-8 w-full cursor-pointer touch-none select-none rounded border border-slate-300 bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-600"
      >
        <span aria-hidden="true" className="absolute inset-x-1 top-3 border-t border-slate-300" />
        {ticks}
        <span
          aria-hidden="true"
          className="absolute inset-y-0 rounded border-2 border-sky-600 bg-sky-400/10"
          style={{ left: pct(view.x1), width: `calc(${pct(view.x2)} - ${pct(view.x1)})` }}
        />
      </div>
      <div aria-hidden="true" className="mt-0.5 flex justify-between gap-2">
        <span>{first ? `oldest ${versionOf(first.label)}` : ''}</span>
        <span>{shown}; drag the frame or use the arrow keys here</span>
        <span>{last ? `newest ${versionOf(last.label)}` : ''}</span>
      </div>
    </div>
  );
}
