'use client';
// A field naming a Secret or ConfigMap of the operand's namespace, or a StorageClass or
// PriorityClass of the cluster (`urn:alm:descriptor:io.kubernetes:<Kind>`): a text input offering
// the names there (a <datalist>), so the person may pick one or still type a name (one not
// created yet, or one they may not list). Why nothing is offered is said under it: the API
// server's refusal, or none there yet.
import { useQuery } from '@tanstack/react-query';
import { isClusterNamedKind, type NamedKind, type ObjectNames } from '@/lib/api/object-names';
import { ApiClientError, apiGet } from '@/lib/client/api';
import { useOperandForm } from './form-context';

const ONE: Record<NamedKind, string> = {
  secrets: 'Secret',
  configmaps: 'ConfigMap',
  storageclasses: 'StorageClass',
  priorityclasses: 'PriorityClass',
};

/** What every scalar input of the form carries (id, descriptions, invalid and required marks). */
export type InputProps = Record<string, unknown> & { id: string; 'aria-describedby': string };

interface Props {
  kind: NamedKind;
  common: InputProps;
  value: string;
  onChange: (v: string) => void;
  className: string;
}

export function ObjectNamePicker({ kind, common, value, onChange, className }: Props) {
  const { namespace } = useOperandForm();
  const one = ONE[kind];
  const what = one.endsWith('s') ? `${one}es` : `${one}s`;
  const cluster = isClusterNamedKind(kind);
  const where = cluster ? 'the cluster' : namespace;
  const names = useQuery({
    queryKey: ['object-names', cluster ? '' : namespace, kind],
    queryFn: ({ signal }) =>
      apiGet<ObjectNames>(
        cluster ? `/api/cluster/${kind}` : `/api/namespaces/${encodeURIComponent(namespace)}/${kind}`,
        signal,
      ),
    staleTime: 10_000,
    enabled: cluster || namespace !== '',
    // A refusal will not change by asking again.
    retry: false,
  });
  const listId = `${common.id}-names`;
  const noteId = `${common.id}-names-note`;
  const note = names.error
    ? names.error instanceof ApiClientError && names.error.code === 403
      ? `you may not list ${what}${cluster ? '' : ` in ${namespace}`}; type a name`
      : `the ${what} of ${where} could not be listed (${names.error.message}); type a name`
    : names.data && !names.data.names.length
      ? `no ${what} in ${where} yet; type the name of one you will create`
      : names.data?.more
        ? `the first ${names.data.names.length} ${what} of ${where} are offered; type another name if needed`
        : undefined;
  return (
    <>
      <input
        type="text"
        {...common}
        aria-describedby={[common['aria-describedby'], note ? noteId : ''].filter(Boolean).join(' ')}
        list={names.data?.names.length ? listId : undefined}
        className={className}
        value={value}
        autoComplete="off"
        placeholder={`name of a ${one}${cluster ? '' : ` in ${namespace}`}`}
        onChange={(e) => onChange(e.target.value)}
      />
      {names.data && names.data.names.length > 0 && (
        <datalist id={listId}>
          {names.data.names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      )}
      {note && (
        <p id={noteId} className="text-xs text-slate-600">
          {note}
        </p>
      )}
    </>
  );
}
