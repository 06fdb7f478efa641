'use client';
// Copy a text to the clipboard, saying so in place ("Copied"), or that the browser refused it;
// and save a text as a file, made in the browser from what the page already holds.
import { useState } from 'react';

const BUTTON = 'rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-800 hover:bg-slate-50';

export function CopyButton({ text, what, className = BUTTON }: { text: string; what: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    // The clipboard needs a secure context and the person's permission; say when it is refused.
    const done = navigator.clipboard?.writeText(text);
    if (!done) return setState('failed');
    void done.then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <>
      <button type="button" aria-label={`Copy ${what}`} onClick={copy} className={className}>
        {state === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span role="status" className="sr-only">
        {state === 'copied' ? `${what} copied` : ''}
      </span>
      {state === 'failed' && (
        <span className="text-xs text-red-800">The browser did not allow copying; select the text instead.</span>
      )}
    </>
  );
}

/** Saves `text` as `filename` through an object URL (no size limit of a data: address). */
export function saveText(text: string | Uint8Array<ArrayBuffer>, filename: string, type = 'application/yaml'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

interface DownloadProps {
  text: string;
  filename: string;
  what: string;
  className?: string;
}

export function DownloadButton({ text, filename, what, className = BUTTON }: DownloadProps) {
  return (
    <button
      type="button"
      aria-label={`Download ${what} as ${filename}`}
      className={className}
      onClick={() => saveText(text, filename)}
    >
      Download
    </button>
  );
}
