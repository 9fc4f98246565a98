# syntax=docker/dockerfile:1
# One image for the three deployables; the command picks which one runs:
#   node --heap-growing-percent=50 --max-semi-space-size=16 dist/apps/api/src/main.js |
#   node --no-memory-reducer --heap-growing-percent=100 --single-threaded-gc --max-semi-space-size=16 \
#     dist/apps/ingest/src/main.js |
#   node dist/apps/scorer/src/main.js (package.json's start:<app> scripts are the reference)

# --- build: full dependency tree, compile TypeScript and rewrite path aliases -------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- runtime: production dependencies and compiled output only, unprivileged -------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    VERITY_HOME=/tmp/verity
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
# The `node` user (uid 1000) ships with the official image; nothing under /app is writable
# by it, so the container also runs with a read-only root filesystem (Kubernetes mounts /tmp).
USER node
EXPOSE 8080
# SIGTERM reaches node directly (exec form), so the app's graceful shutdown runs.
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=16", "dist/apps/api/src/main.js"]
