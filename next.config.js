// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The console's HTTP server compresses every answer, API and event streams included
  // (lib/server/http/console-server.ts); Next.js compressing pages too would be a second layer.
  compress: false,
  // `.next/standalone`: the server with only the node_modules it needs, which
  // scripts/build-runtime.ts completes into the runtime folder the container image copies.
  // `npm start` serves `.next` from the checkout instead and builds without it (START_BUILD_ENV in
  // scripts/start-options.ts): tracing and copying it was 7–17 s of a first start.
  output: process.env.OLM_CONSOLE_BUILD_STANDALONE === 'false' ? undefined : 'standalone',
  outputFileTracingRoot: __dirname,
  // The routes run from their bundles, never from the sources: a path the tracer cannot resolve
  // (the bundle image cache's `join(OLM_CONSOLE_CATALOG_SNAPSHOT_DIR, 'bundle-images')`) made it
  // copy the source folder of that name, tests included, into the runtime folder.
  outputFileTracingExcludes: { '*': ['lib/**'] },
  // Server-only packages with native or dynamic requires stay out of the bundle.
  serverExternalPackages: ['@kubernetes/client-node', '@grpc/grpc-js', '@grpc/proto-loader', 'prom-client', 'pino'],
  // Types are checked by `npm run typecheck` (CI runs it on every change), over every file, tests
  // included; checking them again inside each build made a first `npm start` wait 80 s more.
  typescript: { ignoreBuildErrors: true },
};

module.exports = nextConfig;
