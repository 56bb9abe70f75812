# syntax=docker/dockerfile:1
# Build stage: every dependency (esbuild comes with tsx), then src/ compiled to dist/ and the
# development dependencies dropped again.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY scripts ./scripts
COPY src ./src
RUN node scripts/build.mjs --force && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: compiled JavaScript and production dependencies only, run as the image's
# unprivileged `node` user. Uploads and the SQLite store (when DATABASE_URL is unset) go to /data.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/-/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1's only process: `docker stop`'s SIGTERM reaches the server, which drains and exits 0.
# A small young generation keeps idle memory low (see README, Production).
CMD ["node", "--max-semi-space-size=2", "dist/main.js"]
