#!/bin/sh
# Runs secret-rollout (on PATH) for Helm 4: the rendered manifests on stdin, the result on stdout.
# Helm 4 keeps a plugin's stderr to itself, even when it fails (internal/plugin/runtime_subprocess.go),
# so the results would be lost: they go to the file SECRET_ROLLOUT_RESULTS names, else to the
# terminal when there is one.
if [ -n "${SECRET_ROLLOUT_RESULTS:-}" ]; then
  exec secret-rollout "$@" 2>>"$SECRET_ROLLOUT_RESULTS"
fi
if (true >/dev/tty) 2>/dev/null; then
  exec secret-rollout "$@" 2>/dev/tty
fi
exec secret-rollout "$@"
