# netinv container image: gateway, inventory, migrations and the all-in-one server from one image.
#   docker build -t netinv:7.6.0 .
#   docker run -p 8080:8080 netinv:7.6.0                 # serve: embedded PGlite, in-process limits
#   docker run netinv:7.6.0 gateway | inventory | migrate   # what the Helm chart runs
# test/image.test.ts performs the runtime stage's install and start steps without a Docker engine.
ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: all dependencies, compile TypeScript and the web interface to dist/ --------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json ./web/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY web ./web
RUN npm run build

# --- runtime: production dependencies and the compiled output only, as a non-root user -----------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    CONFIG_DIR=/app/config \
    DATA_DIR=/var/lib/netinv
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json ./web/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY config ./config
# Fonts for the text of graphs/png (path and topology drawings rasterised by resvg).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 netinv \
 && useradd --system --uid 10001 --gid netinv --home-dir /var/lib/netinv --shell /usr/sbin/nologin netinv \
 && mkdir -p /var/lib/netinv \
 && chown netinv:netinv /var/lib/netinv
USER 10001:10001
EXPOSE 8080 8081 9090
VOLUME ["/var/lib/netinv"]
ENTRYPOINT ["node", "--no-memory-reducer", "dist/src/cli.js"]
CMD ["serve"]
