#!/usr/bin/env bash
# The project's main job on an embedded default (see README). Installs and builds what it needs first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_pnpm
install_and_build
cd "$REPO_ROOT"
exec node apps/dsh-lab/dist/demo.js "$@"
