# syntax=docker/dockerfile:1
# The Seller Distribution API as operators run it: compiled JavaScript on plain node, non-root.
# docs/operations.md describes the image, its listeners and compose.yaml.

# ---- build: compile TypeScript and the native SQLite driver, then drop development packages
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
# The SDK and the seller CLI are npm workspaces of the repository: `npm ci` needs their manifests,
# not their sources.
COPY sdk/package.json ./sdk/package.json
COPY cli/package.json ./cli/package.json
# The seller console is built with the service (`npm run build`) and served from console/dist.
COPY console ./console
COPY scripts ./scripts
COPY src ./src
# `npm ci` runs `prepare`, which builds dist/.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: node, the production packages, dist/ and the CLI entry; nothing else
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    ADMIN_PORT=8081 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080 8081
# Ready = the database (and Redis when configured) answer and the process is not draining.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.ADMIN_PORT||8081)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1's child of nothing: SIGTERM from `docker stop` reaches the server directly.
CMD ["node", "dist/server.js"]
