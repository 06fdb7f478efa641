'use client';
// A GitOps tree shown as a team would review it: each file with its path, copyable, and the whole
// tree to download as a tar — from a URL the server answers, or built here from the files.
import { useState } from 'react';
import { tarArchive } from '@/lib/files/tar';
import type { ExportFile } from '@/lib/olm/install/gitops-export';
import { Warning } from './notice';

function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button type="button" aria-label={`Copy ${what}`} onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))} className="rounded border border-slate-300 px-2 py-0.5 text-xs">
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

function download(files: readonly ExportFile[], filename: string): void {
  const url = URL.createObjectURL(new Blob([tarArchive(files)], { type: 'application/x-tar' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function GitopsFiles({ files, notes = [], tar }: { files: readonly ExportFile[]; notes?: readonly string[]; tar: { href: string } | { filename: string } }) {
  return (
    <div className="space-y-3">
      {notes.length > 0 && (
        <Warning title="Check before you commit">
          <ul className="list-disc pl-5">{notes.map((n) => <li key={n}>{n}</li>)}</ul>
        </Warning>
      )}
      {'href' in tar ? (
        <a className="inline-block rounded border border-sky-700 px-3 py-1.5 text-sm font-semibold text-sky-800" href={tar.href} download>
          Download the tree (.tar)
        </a>
      ) : (
        <button type="button" onClick={() => download(files, tar.filename)} className="rounded border border-sky-700 px-3 py-1.5 text-sm font-semibold text-sky-800">
          Download the tree (.tar)
        </button>
      )}
      <ul aria-label="Exported files" className="space-y-3">
        {files.map((f) => (
          <li key={f.path} aria-label={f.path} className="space-y-1">
            <div className="flex items-center gap-2">
              <code className="text-sm font-semibold">{f.path}</code>
              <CopyButton text={f.content} what={f.path} />
            </div>
            <pre tabIndex={0} className="max-h-72 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{f.content}</pre>
          </li>
        ))}
      </ul>
    </div>
  );
}
