'use client';
// Share an install: the wizard's address with every choice in it. Someone who may not install
// copies it "for an administrator", who opens it, sees the same plan, and installs or exports it
// for GitOps. The link is the whole request; nothing is stored in the cluster for it.
import { CopyButton } from '../common/copy-button';
import type { InstallChoices } from './install-request';
import { shareLink } from './share-link';

export function ShareInstall({ choices, refused }: { choices: InstallChoices; refused?: string }) {
  // Rendered only once the package has loaded in the browser, so the address is known.
  const url = `${typeof window === 'undefined' ? '' : window.location.origin}${shareLink(choices)}`;
  return (
    <section
      aria-labelledby="share-title"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm text-slate-700"
    >
      <h3 id="share-title" className="font-semibold text-slate-900">
        {refused ? 'Ask an administrator' : 'Share this install'}
      </h3>
      <p>
        {refused
          ? `${refused}. This link opens the wizard with every choice above made: an administrator sees the same plan and installs it, or exports it for GitOps.`
          : 'This link opens the wizard with every choice above made, for someone else to check the plan and install it.'}{' '}
        Nothing is stored in the cluster for it.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          value={url}
          aria-label="Link to this install"
          onFocus={(e) => e.target.select()}
          className="min-w-0 flex-1 rounded border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-xs"
        />
        <CopyButton text={url} what={refused ? 'link for an administrator' : 'link to this install'} />
      </div>
    </section>
  );
}
