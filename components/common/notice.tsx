// Status lines: an error from the API with its reason, a warning, a note.
import { ApiClientError } from '@/lib/client/api';

export function ErrorNotice({ error, what }: { error: unknown; what: string }) {
  const message =
    error instanceof ApiClientError
      ? `${error.body.reason}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  const unauthorized = error instanceof ApiClientError && error.code === 401;
  return (
    <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
      {what}: {message}
      {unauthorized && (
        <>
          {' '}
          <a
            className="font-semibold underline"
            href={`/login?next=${encodeURIComponent(typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search)}`}
          >
            Log in
          </a>
        </>
      )}
    </p>
  );
}

export function Warning({ children, title }: { children: React.ReactNode; title?: string }) {
  return (
    <div role="note" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {title && <p className="font-semibold">{title}</p>}
      <div>{children}</div>
    </div>
  );
}
