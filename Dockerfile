# syntax=docker/dockerfile:1
# Switchyard gateway. Without a catalogue it runs the embedded demo; mount one and pass --config
# for your own providers. State (SQLite database, demo key, keys) lives in the data volume.

# Production dependencies only. Install scripts are skipped (the package's own `prepare` compiles
# with the TypeScript compiler, a development dependency), then better-sqlite3, the one
# production dependency with a native part, is built on its own.
FROM node:20-bookworm AS deps
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm rebuild better-sqlite3

# The compiled sources.
FROM node:20-bookworm AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080
WORKDIR /opt/switchyard
COPY --from=deps /build/node_modules ./node_modules
COPY --from=build /build/dist ./dist
# the web pages' templates and static files, read where the sources keep them
COPY src/web/templates ./src/web/templates
COPY src/web/public ./src/web/public
COPY package.json LICENSE ./
COPY bin ./bin
RUN ln -s /opt/switchyard/bin/switchyard.js /usr/local/bin/switchyard \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/switchyard --create-home switchyard \
 && mkdir /var/lib/switchyard/data && chown switchyard:switchyard /var/lib/switchyard/data
USER switchyard
# `./data` (database, demo key, keys) is resolved from here.
WORKDIR /var/lib/switchyard
VOLUME ["/var/lib/switchyard/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `docker stop` sends SIGTERM, which drains: requests in flight get 10 seconds to finish (stop with
# a timeout above that, e.g. `docker stop -t 15`).
ENTRYPOINT ["switchyard"]
CMD ["serve", "--host", "0.0.0.0"]
