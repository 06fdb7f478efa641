# The console's image: built from a checkout, it holds only the runtime folder (`npm run build`
# → .next/standalone: the server, the build, and the node_modules the server needs), runs as a
# non-root user and writes nothing outside the emptyDir volumes the manifests mount
# (.next/cache, /tmp), so the root filesystem can be read-only (deploy/base).
#   docker build -t REGISTRY/olm-console:TAG .

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# distroless: node and its libraries, no shell or package manager.
FROM gcr.io/distroless/nodejs20-debian12:nonroot
WORKDIR /app
COPY --from=build /src/.next/standalone/ ./
ENV NODE_ENV=production
USER 65532:65532
EXPOSE 3000
# The image's entrypoint is node. Flags or the environment say which cluster: in a pod,
# --in-cluster (deploy/base); locally, a mounted kubeconfig with --kubeconfig.
CMD ["server.mjs", "--in-cluster", "--host", "0.0.0.0", "--port", "3000"]
