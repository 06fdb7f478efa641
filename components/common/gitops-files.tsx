'use client';
// A GitOps tree shown as a team would review it: each file with its path, copyable, and the whole
// tree to download as a tar — from a URL the server answers, or built here from the files.
import { tarArchive } from '@/lib/files/tar';
import type { ExportFile } from '@/lib/olm/install/gitops-export';
import { CopyButton, saveText } from './copy-button';
import { Warning } from './notice';

async function download(files: readonly ExportFile[], filename: string): Promise<void> {
  saveText(await tarArchive(files), filename, 'application/x-tar');
}

export function GitopsFiles({
  files,
  notes = [],
  tar,
}: {
  files: readonly ExportFile[];
  notes?: readonly string[];
  tar: { href: string } | { filename: string };
}) {
  return (
    <div className="space-y-3">
      {notes.length > 0 && (
        <Warning title="Check before you commit">
          <ul className="list-disc pl-5">
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </Warning>
      )}
      {'href' in tar ? (
        <a
          className="inline-block rounded border border-sky-700 px-3 py-1.5 text-sm font-semibold text-sky-800"
          href={tar.href}
          download
        >
          Download the tree (.tar)
        </a>
      ) : (
        <button
          type="button"
          onClick={() => void download(files, tar.filename)}
          className="rounded border border-sky-700 px-3 py-1.5 text-sm font-semibold text-sky-800"
        >
          Download the tree (.tar)
        </button>
      )}
      <ul aria-label="Exported files" className="space-y-3">
        {files.map((f) => (
          <li key={f.path} aria-label={f.path} className="space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <code className="min-w-0 text-sm font-semibold [overflow-wrap:anywhere]">{f.path}</code>
              <CopyButton text={f.content} what={f.path} />
            </div>
            <pre
              tabIndex={0}
              className="max-h-72 overflow-auto whitespace-pre-wrap rounded bg-slate-900 p-3 text-xs text-slate-100 [overflow-wrap:anywhere]"
            >
              {f.content}
            </pre>
          </li>
        ))}
      </ul>
    </div>
  );
}
