// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages with native or dynamic requires stay out of the bundle.
  serverExternalPackages: ['@kubernetes/client-node', '@grpc/grpc-js', '@grpc/proto-loader', 'prom-client', 'pino'],
};

module.exports = nextConfig;
