# The server (what `npm start` runs) in a container: docker build -t crawler-index . && docker run -p 8080:8080 crawler-index
# Node 24 LTS runs the TypeScript itself (type stripping), so the image holds no compiler and
# no dev dependency. The request log is written to /app/state: mount a volume there (compose.yaml).

# Build stage: production dependencies only. better-sqlite3 compiles from source when no
# prebuilt binary can be fetched, which needs python3, make and a C++ compiler.
FROM node:24.21.0-trixie-slim AS dependencies
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Runtime stage: the same Node, the dependencies, and what the server reads. Files stay owned
# by root, so the server (user node) cannot change its own code or the published tree.
FROM node:24.21.0-trixie-slim
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    NODE_COMPILE_CACHE=/app/.cache/node-compile-cache
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json serve.ts ./
COPY bin ./bin
COPY pipeline ./pipeline
COPY schemas ./schemas
COPY records ./records
COPY dist ./dist
# state/ holds the request log (a volume); the cache holds compiled modules for a fast start.
RUN mkdir -p state .cache/node-compile-cache && chown node:node state .cache/node-compile-cache
# Checks the site settings now and keeps them, owned by root, so that every start reads them
# back instead of parsing and validating records/site.yaml (pipeline/node/site-settings.ts).
RUN node --input-type=module -e "await (await import('./pipeline/node/site-settings.ts')).readSite('.')" \
 && test -s .cache/site-settings.json
USER node
# Fills the compile cache now, so the first start does not pay for it.
RUN node --import ./bin/ts-loader.mjs --input-type=module -e "await import('./pipeline/node/server.ts')"
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 CMD ["node", "bin/healthcheck.mjs"]
# Exec form: node is the container's process, so `docker stop` (SIGTERM) reaches the server,
# which closes its socket and the request log and exits.
CMD ["node", "--import", "./bin/ts-loader.mjs", "serve.ts"]
