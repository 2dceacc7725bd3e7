#!/usr/bin/env bash
# A pull-request step: render OVERLAY at BASE_REF and at HEAD_REF, gate on `secret-rollout check`,
# and write what the change restarts (`secret-rollout impact`) for the pipeline to post.
#
# Usage (from the root of the repository that holds the manifests, both refs fetched):
#   examples/ci/impact.sh BASE_REF HEAD_REF OVERLAY
#
# Writes into $IMPACT_OUT (default impact-out/, relative to the working directory):
#   base.yaml, head.yaml   OVERLAY rendered at each ref (from `git archive`: the work tree is not read)
#   impact.md              the pull-request comment (markdown), cut at a comment's cap (65,536
#                          characters, GitHub's) with a line saying so
#   impact-full.md         the whole markdown report, never cut
#   impact.json            the same as JSON (schema/impact.schema.json)
#   impact.sarif           with SARIF_DIR set: HEAD's lints in SARIF_DIR (a directory of manifests in
#                          the repository, e.g. the kustomize base) at their file and line
# Environment:
#   SECRET_ROLLOUT              the command (word-split; default: secret-rollout)
#   RENDER                      kustomize (default: kubectl kustomize $KUSTOMIZE_FLAGS OVERLAY) or kpt
#                               (kpt fn render --allow-exec on a copy of OVERLAY, output unwrapped)
# The gate checks the rendered HEAD: the committed manifests are already rendered (kpt fn render or
# secret-rollout run and committed, as in examples/ci/impact), or OVERLAY's render itself runs
# secret-rollout (a kustomize transformer with KUSTOMIZE_FLAGS=--enable-alpha-plugins, or the
# function in the Kptfile pipeline with RENDER=kpt); else every checksum is missing and it fails. The report needs no such
# thing: impact plans both sides itself.
# Exit status: 0 when the report is written and the gate passes; 1 otherwise (the report is still
# written when only the gate fails, so the pipeline can post it).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 BASE_REF HEAD_REF OVERLAY" >&2
  exit 2
fi
base_ref=$1
head_ref=$2
overlay=$3
out=${IMPACT_OUT:-impact-out}
render=${RENDER:-kustomize}
read -r -a secret_rollout <<<"${SECRET_ROLLOUT:-secret-rollout}"
# e.g. --enable-alpha-plugins, for a kustomization that runs secret-rollout as a transformer
read -r -a kustomize_flags <<<"${KUSTOMIZE_FLAGS:-}"

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each ref's tree, exactly as committed; then OVERLAY rendered from it.
for side in base head; do
  ref=$base_ref
  [ "$side" = head ] && ref=$head_ref
  mkdir -p "$work/$side"
  git archive --format=tar "$ref" | tar -x -C "$work/$side"
  case $render in
  kustomize) kubectl kustomize "${kustomize_flags[@]}" "$work/$side/$overlay" >"$out/$side.yaml" ;;
  kpt) kpt fn render --allow-exec "$work/$side/$overlay" -o unwrap >"$out/$side.yaml" ;;
  *)
    echo "RENDER must be kustomize or kpt, got $render" >&2
    exit 2
    ;;
  esac
done

# The report: what HEAD restarts compared with BASE. Both are rendered the same way by impact.
# The comment names impact-full.md where it is cut: the pipeline keeps impact-out/ as an artifact.
"${secret_rollout[@]}" impact "$out/base.yaml" "$out/head.yaml" \
  --output-full "$out/impact-full.md" >"$out/impact.md"
"${secret_rollout[@]}" impact "$out/base.yaml" "$out/head.yaml" --format json >"$out/impact.json"
if [ -n "${SARIF_DIR:-}" ]; then
  "${secret_rollout[@]}" impact "$work/base/$SARIF_DIR" "$SARIF_DIR" --format sarif >"$out/impact.sarif"
fi
echo "impact: $out/impact.md"

# The gate: the rendered HEAD is what a render with secret-rollout writes (results on stderr).
if ! "${secret_rollout[@]}" check <"$out/head.yaml"; then
  echo "check: a render would change $overlay at $head_ref: render and commit" >&2
  exit 1
fi
