// The class of a <dl> of facts (label, value): two columns where there is room, the label above
// its value on a phone; long values (names, images, messages) wrap at any character rather than
// push the page wider.
const STACKED = [
  'grid grid-cols-[minmax(0,1fr)] gap-x-4 [overflow-wrap:anywhere] sm:gap-y-1',
  'max-sm:[&>dt:not(:first-child)]:mt-2',
].join(' ');

export const FACTS_GRID = {
  narrow: `${STACKED} sm:grid-cols-[8rem_minmax(0,1fr)]`,
  medium: `${STACKED} sm:grid-cols-[10rem_minmax(0,1fr)]`,
  wide: `${STACKED} sm:grid-cols-[12rem_minmax(0,1fr)]`,
  widest: `${STACKED} sm:grid-cols-[14rem_minmax(0,1fr)]`,
} as const;
