#!/usr/bin/env bash
# Runs every test of the project from a fresh clone: installs pnpm and dependencies, builds all packages,
# then runs all vitest projects (unit, composition, browser and real-host tiers).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_pnpm
install_and_build
cd "$REPO_ROOT"
rc=0
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=.vitest-results.json "$@" || rc=$?
node scripts/test-summary.mjs .vitest-results.json || true
exit "$rc"
