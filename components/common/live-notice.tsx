'use client';
// What a page says when it is not following the cluster live: its stream is reconnecting, or the
// cluster lets the person read what the page shows but not watch some of it, or the session is over.
import type { LiveState } from '@/lib/client/live';

export function LiveNotice({
  state,
  reconnecting = 'Reconnecting to the cluster…',
  className = 'text-amber-800',
  inline = true,
}: {
  state: LiveState;
  reconnecting?: string;
  className?: string;
  inline?: boolean;
}) {
  const text =
    state === 'reconnecting'
      ? reconnecting
      : state === 'limited'
        ? 'Not followed live: you may read these objects but the cluster does not let you watch some of them; reload the page for the latest.'
        : state === 'ended'
          ? 'Your session has ended: log in again to follow the cluster.'
          : undefined;
  if (!text) return null;
  return inline ? (
    <span role="status" className={className}>
      {text}
    </span>
  ) : (
    <p role="status" className={className}>
      {text}
    </p>
  );
}
