# secret-rollout as a container image, for kpt (`image:`), kustomize (`container:` transformers),
# Argo CD plugins and CI pipes:
#
#   docker build -t localhost/secret-rollout:dev .
#
# The final stage is the Node.js runtime plus dist/: the esbuild bundle and the rules' file it
# loads on first use, the libraries only some runs load (a file each), the command that runs them
# and V8's code cache for each of the two (made by the build stage's Node.js: keep both images on
# one version, or V8 rejects the caches and compiles at each start). No node_modules, no npm.
# It runs as nobody (65534), the user kpt and kustomize pass anyway (`--user nobody`), needs no
# network and writes nothing, so it works with `--read-only` and `--network none`.
# test/container/ builds this file and runs it through the real kpt and kubectl.

# Base images. Defaults: the Node.js LTS on Alpine (it has a shell, which the Argo CD plugin
# example needs), pinned by digest so that a build takes the image that was reviewed, not whatever
# the tag points at that day. Tag: node:24-alpine (Node.js 24.20.0, Alpine 3.24.1, pushed
# 2026-08-27); the digest is its multi-platform index (linux/amd64, arm64, s390x) as Docker's
# official-images bot recorded it: docker-library/repo-info, repos/node/remote/24-alpine.md at
# commit 2eade49d93bd3ea5092e8210e288f13f832b298d. To update: `docker buildx imagetools inspect
# node:24-alpine` (or `crane digest node:24-alpine`), check the Node.js version, and replace both
# digests, the version and the date here in one commit (README, Container image).
ARG BUILD_IMAGE=node:24-alpine@sha256:e67514e5d0f6c46656005e1b693b2ec9d52e80b641307de684d4a015ba7a4eaf
ARG RUNTIME_IMAGE=node:24-alpine@sha256:e67514e5d0f6c46656005e1b693b2ec9d52e80b641307de684d4a015ba7a4eaf

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
# NPM_CI=false skips `npm ci`; only for builds that bind-mount a ready node_modules at
# /src/node_modules instead (test/container does, see container.e2e.ts for why).
ARG NPM_CI=true
COPY package.json package-lock.json ./
RUN if [ "$NPM_CI" = true ]; then npm ci --ignore-scripts --no-audit --no-fund; fi
COPY . .
# World-readable, owned by root: whatever user the orchestrator picks can run it, none can change it.
RUN npm run build && chmod 0644 dist/*

FROM ${RUNTIME_IMAGE}
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/<owner>/secret-rollout
LABEL org.opencontainers.image.title="secret-rollout" \
      org.opencontainers.image.description="KRM function: roll workloads when their ExternalSecrets change, and order ExternalSecrets before their consumers with Argo CD sync waves" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="Apache-2.0"
COPY --from=build /src/dist/ /app/
USER 65534:65534
ENTRYPOINT ["node", "/app/secret-rollout.cjs"]
