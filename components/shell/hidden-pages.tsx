// The pages the navigation leaves out for this person, each with the right it rests on and the
// cluster's answer (a SelfSubjectAccessReview), behind a small disclosure at the end of the row.
import type { PageAccess } from '@/lib/api/page-access';

export interface HiddenPage {
  label: string;
  access: PageAccess;
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
          {pages.map(({ label, access }) => (
            <li key={access.path}>
              <span className="font-semibold">{label}</span> needs you to {access.needs}.{' '}
              <span className="text-slate-600">{access.reason}</span>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
