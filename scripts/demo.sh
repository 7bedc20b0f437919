#!/usr/bin/env bash
# The project's main job on an embedded default (see README). Installs and builds what it needs first, quietly:
# the install and build output is shown only when a step fails, or always with --verbose.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
verbose=0
args=()
for arg in "$@"; do
  if [ "$arg" = "--verbose" ]; then verbose=1; else args+=("$arg"); fi
done
ensure_pnpm
if [ "$verbose" = 1 ]; then
  install_and_build
else
  log="$(mktemp)"
  echo "[demo] installing and building the workspace (output only on failure; --verbose shows it)" >&2
  if ! (install_and_build) >"$log" 2>&1; then
    cat "$log" >&2
    echo "[demo] error: install or build failed (output above)" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
fi
cd "$REPO_ROOT"
exec node apps/dsh-lab/dist/demo.js ${args[@]+"${args[@]}"}
