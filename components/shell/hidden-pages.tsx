// The pages the navigation leaves out for this person, each with the right it rests on and the
// cluster's answer (a SelfSubjectAccessReview, or what the home cluster said of its hub), behind a
// small disclosure at the end of the row.

export interface HiddenPage {
  label: string;
  /** The right the page rests on, in words. */
  needs: string;
  /** Why not, in the cluster's words. */
  reason?: string;
}

export function HiddenPages({ pages }: { pages: HiddenPage[] }) {
  return (
    <details className="group relative text-sm">
      <summary className="cursor-pointer py-2 text-slate-300 hover:text-white md:py-1">
        {pages.length === 1 ? '1 page hidden' : `${pages.length} pages hidden`}
      </summary>
      <div
        className="mt-1 rounded bg-white p-3 text-slate-800 shadow-lg md:absolute md:right-0 md:z-30 md:mt-2
        md:w-96"
      >
        <p className="mb-2">Not in your navigation, because the cluster does not let you do what they need:</p>
        <ul className="space-y-2">
          {pages.map(({ label, needs, reason }) => (
            <li key={label}>
              <span className="font-semibold">{label}</span> needs you to {needs}.{' '}
              <span className="text-slate-600">{reason}</span>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
