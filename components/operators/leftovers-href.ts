// Where "What is left" of an operator lives, named by its Subscription and/or CSV.
export function leftoversHref(namespace: string, anchor: { subscription?: string; csv?: string }): string {
  const q = new URLSearchParams();
  if (anchor.subscription) q.set('subscription', anchor.subscription);
  if (anchor.csv) q.set('csv', anchor.csv);
  return `/leftovers/${encodeURIComponent(namespace)}?${q.toString()}`;
}
