'use client';
// "Create instance" of an API the operator provides, from the CSV's own example (alm-examples),
// shown as YAML before it is created in the operator's namespace.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { apiWrite } from '@/lib/client/api';
import { ErrorNotice } from '../common/notice';
import { YamlBlock } from '../common/yaml-block';

export function CreateInstance({ namespace, csv, kind, example }: { namespace: string; csv: string; kind: string; example: Record<string, unknown> }) {
  const [open, setOpen] = useState(false);
  const create = useMutation({ mutationFn: () => apiWrite<{ metadata?: { name?: string } }>(`/api/operands/${encodeURIComponent(namespace)}`, 'POST', { csv, object: example }) });
  return (
    <div className="space-y-2">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="text-sm text-sky-700 underline">
        {open ? 'Hide' : `Create ${kind}…`}
      </button>
      {open && (
        <div className="space-y-2 rounded border border-slate-200 p-3">
          <YamlBlock object={example} label={`${kind} example`} />
          <button type="button" disabled={create.isPending || create.isSuccess} onClick={() => create.mutate()} className="rounded bg-sky-700 px-3 py-1 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600">
            Create {kind} in {namespace}
          </button>
          {create.isSuccess && <p role="status" className="text-sm text-emerald-800">Created {kind} {create.data.metadata?.name} in {namespace}.</p>}
          {create.error && <ErrorNotice error={create.error} what={`Creating the ${kind} failed`} />}
        </div>
      )}
    </div>
  );
}
