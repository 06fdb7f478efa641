// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `.next/standalone`: the server with only the node_modules it needs, which
  // scripts/build-runtime.ts completes into the runtime folder the container image copies.
  output: 'standalone',
  outputFileTracingRoot: __dirname,
  // Server-only packages with native or dynamic requires stay out of the bundle.
  serverExternalPackages: ['@kubernetes/client-node', '@grpc/grpc-js', '@grpc/proto-loader', 'prom-client', 'pino'],
};

module.exports = nextConfig;
