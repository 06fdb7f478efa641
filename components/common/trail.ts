// The breadcrumb of a page that could not be shown (an error, an address that leads nowhere),
// read from its address alone, since what the page would have said about itself is what failed:
// the section of the navigation the address belongs to, then the name the address ends in.
import { currentState, NAV_ITEMS, type NavItem } from '../shell/nav-items';

export interface Trail {
  /** The navigation's section the address is under, linked; none for an address under no section. */
  section?: Pick<NavItem, 'href' | 'label'>;
  /** The last part of the address, as a person reads it. */
  here?: string;
}

export function trailFor(pathname: string): Trail {
  const item = NAV_ITEMS.find((i) => currentState(i, pathname));
  const parts = pathname.split('/').filter(Boolean);
  let here: string | undefined;
  try {
    here = parts.length ? decodeURIComponent(parts.at(-1)!) : undefined;
  } catch {
    // A malformed escape (%zz) is shown as typed rather than failing the error page itself.
    here = parts.at(-1);
  }
  // The section's own page adds nothing after its name.
  if (item && pathname === item.href) here = undefined;
  return { ...(item ? { section: { href: item.href, label: item.label } } : {}), ...(here ? { here } : {}) };
}
