export default function HomePage() {
  return (
    <section aria-labelledby="welcome-title" className="space-y-4">
      <h1 id="welcome-title" className="text-3xl font-bold">
        Operator Lifecycle Manager
      </h1>
      <p className="max-w-2xl text-slate-700">
        Browse the operators your catalogs publish, install them with the install mode, channel and approval you choose,
        and follow their subscriptions and upgrades.
      </p>
    </section>
  );
}
