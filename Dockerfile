# Plant Shop in a container (README, "Run it in a container"; docs/decisions/012).
# Build stage: everything npm install brings (better-sqlite3 compiles here if its prebuilt binary is unreachable;
# the full node image has the compilers), the production build, then the development packages removed.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Run stage: the same Debian and Node, so the compiled native modules fit; no compilers, no sources.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
# The data folder belongs to the unprivileged user the server runs as.
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME /data
EXPOSE 3000
# node itself is PID 1 (exec form): SIGTERM from `docker stop` reaches the server, which drains within
# SHUTDOWN_TIMEOUT_SECONDS (8 by default, inside docker stop's 10 s).
# --max-semi-space-size=16: a young generation big enough that signed-in requests' objects die young (V8 gives it
# back after a minute idle); --heap-growing-percent=30: the heap grows 30 % past what is alive instead of up to 4x,
# 60-70 MB less under load (docs/decisions/029-bounded-memory.md).
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=30", "build/server/main.js"]
