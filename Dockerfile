# syntax=docker/dockerfile:1
# One image for every Quarry role; the command picks the role:
#   docker run -p 8080:8080 -v quarry-data:/data quarry                  (standalone: every role, one process)
#   docker run quarry node apps/gateway/dist/main.js                      (likewise apps/ingest, query,
#                                                                          management, compactor)
# test/architecture/dockerfile.test.ts lints this file (Docker does not run in CI).

# Only the package manifests, so the dependency layer below is rebuilt only when they change.
FROM node:20-bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete

FROM node:20-bookworm-slim AS build
# re2 and zstd-napi are native modules compiled by node-gyp.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY --from=manifests /src/ ./
# `npm install`, not `npm ci`: it honours the lockfile and copes with @swc/core's optional binaries.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund
# The runtime tree: manifests, production node_modules (with the workspace links), compiled code, and the
# OpenAPI documents the management role validates against. No sources, tests or build tools.
RUN mkdir /out \
  && cp -a --parents package.json node_modules \
    apps/*/package.json apps/*/dist libs/*/package.json libs/*/dist libs/management-node/openapi \
    $(find apps libs -mindepth 2 -maxdepth 2 -name node_modules) /out/

FROM node:20-bookworm-slim AS runtime
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="Quarry" \
  org.opencontainers.image.description="Self-hostable observability data service that speaks Axiom's HTTP API" \
  org.opencontainers.image.version="${VERSION}" \
  org.opencontainers.image.licenses="Apache-2.0"
# tini reaps zombies and forwards SIGTERM, so every role shuts down cleanly without `docker run --init`.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 10001 quarry \
  && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin quarry \
  && mkdir /data \
  && chown 10001:10001 /data
# glibc's malloc keeps up to 8 arenas per core that worker threads grow and seldom return (docs/operations.md,
# Memory): two bound the server's RSS, and blocks of 128 KiB and more get their own mapping, returned when freed.
ENV NODE_ENV=production \
  QUARRY_DATA_DIR=/data \
  MALLOC_ARENA_MAX=2 \
  MALLOC_MMAP_THRESHOLD_=33554432
WORKDIR /app
COPY --from=build /out/ ./
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080
# Slim images have no curl: Node's fetch asks the process's own /healthz (every role serves it on PORT).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--initial-old-space-size=128", "apps/standalone/dist/main.js"]
