#!/bin/sh
# Runs secret-rollout (on PATH) as Helm's post-renderer: the rendered manifests on stdin, the
# result on stdout. The Helm 4 plugin's command; with Helm 3, `--post-renderer <path to this file>`.
#
# Helm 3 runs the post-renderer even on a release that renders no manifests (only hooks, or only
# CRDs): zero bytes, which secret-rollout refuses as a mistake. They go back as they came.
byte=$(dd bs=1 count=1 2>/dev/null | od -An -to1 | tr -d ' \n')
[ -n "$byte" ] || exit 0

# Helm 3 shows the post-renderer's stderr only when it fails, Helm 4 never
# (internal/plugin/runtime_subprocess.go): the results go to the file SECRET_ROLLOUT_RESULTS
# names, else to the terminal when there is one.
if [ -n "${SECRET_ROLLOUT_RESULTS:-}" ]; then
  { printf "\\$byte"; cat; } | secret-rollout "$@" 2>>"$SECRET_ROLLOUT_RESULTS"
elif (true >/dev/tty) 2>/dev/null; then
  { printf "\\$byte"; cat; } | secret-rollout "$@" 2>/dev/tty
else
  { printf "\\$byte"; cat; } | secret-rollout "$@"
fi
