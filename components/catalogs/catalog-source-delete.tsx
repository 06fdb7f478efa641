'use client';
// Deleting a catalog: the server's plan first (the Subscriptions that install from it and what
// OLM then does to them), then the delete as the person, on condition that the CatalogSource is
// still the one read (the generation the person saw, and the resourceVersion read as precondition).
import type { CatalogSourceApplied, CatalogSourceRow } from '@/lib/api/catalog-sources';
import { apiWrite } from '@/lib/client/api';
import { ConfirmCatalogChange } from './catalog-source-confirm';

export function DeleteCatalogSource({
  row,
  onDone,
  onCancel,
}: {
  row: CatalogSourceRow;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const where = `${encodeURIComponent(row.namespace)}/${encodeURIComponent(row.name)}`;
  const seen = encodeURIComponent(String(row.generation ?? ''));
  return (
    <ConfirmCatalogChange
      row={row}
      onDone={onDone}
      onCancel={onCancel}
      change={{
        action: 'delete',
        verb: 'Delete',
        doing: 'Deleting',
        done: 'deleted',
        tone: 'red',
        warningTitle: 'What OLM does then',
        apply: () => apiWrite<CatalogSourceApplied>(`/api/catalogsources/${where}?seen=${seen}`, 'DELETE'),
        message: `Deleted catalog source ${row.namespace}/${row.name}.`,
      }}
    />
  );
}
