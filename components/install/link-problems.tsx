'use client';
// What the wizard says when it was opened from a shared link: that every choice comes from it,
// and each value it could not use, by parameter, so the sender can be asked for a good link.
import type { InstallModeType } from '@/lib/olm/resources/cluster-service-version';
import type { LinkProblem, readShareLink } from './share-link';

export function LinkProblems({
  link,
  modes,
  refused,
}: {
  link: ReturnType<typeof readShareLink>;
  modes: InstallModeType[];
  refused: Partial<Record<InstallModeType, string>>;
}) {
  const asked = link.choices.installMode;
  const problems: LinkProblem[] = [...link.problems];
  // Whether the version supports the mode is known only once it has loaded.
  if (asked && modes.length > 0 && !modes.includes(asked))
    problems.push({ param: 'mode', message: `this version does not support ${asked}` });
  else if (asked && refused[asked]) problems.push({ param: 'mode', message: `${asked} is not yours to choose` });
  if (!link.shared && problems.length === 0) return null;
  return (
    <div
      role={problems.length ? 'alert' : 'note'}
      aria-label="Shared install"
      className={`rounded border px-3 py-2 text-sm ${problems.length ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-sky-200 bg-sky-50 text-slate-800'}`}
    >
      {link.shared && (
        <p>Opened from a shared install: the choices below come from the link. Check the plan before installing.</p>
      )}
      {problems.length > 0 && (
        <>
          <p className="mt-1 font-semibold">
            {problems.length === 1 ? 'One value' : `${problems.length} values`} of the link could not be used; the
            wizard chose its default instead:
          </p>
          <ul className="list-disc pl-5">
            {problems.map((p) => (
              <li key={`${p.param}: ${p.message}`}>
                <code>{p.param}</code> {p.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
