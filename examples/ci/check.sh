#!/usr/bin/env sh
# A CI step: render, add checksums and waves, fail the build on any error result.
# Usage: examples/ci/check.sh [manifests.yaml]   (default: this folder's manifests.yaml)
set -eu
here=$(dirname "$0")
input=${1:-"$here/manifests.yaml"}
# In a real pipeline: kustomize build overlays/prod | secret-rollout > rendered.yaml
node "$here/../../dist/secret-rollout.cjs" < "$input" > "${RENDERED:-/dev/stdout}"
