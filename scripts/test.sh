#!/usr/bin/env bash
# Runs every test of the project from a fresh clone: installs pnpm and dependencies, builds all packages, checks
# format, lint and types (src, tests, client), then runs all vitest projects (unit, composition, browser and
# real-host tiers) on a Node >= 22.15 (what DSH needs: the plugin, the store's node:sqlite and the analyzer's zstd
# rely on it), and the pure packages' projects a second time on the system Node (they promise Node 20 and
# browsers). Ends with one plain line `tests: N passed, N failed`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_pnpm
install_and_build
cd "$REPO_ROOT"
rc=0
NODE_DSH="$(bash scripts/ensure-node22.sh)"

# Format and lint (Biome, one config at the root): a failure fails the run, but the tests still run.
echo "[test] biome ci (format + lint)" >&2
node_modules/.bin/biome ci --reporter=summary . >&2 || { echo "[test] biome found problems: run node_modules/.bin/biome check --write ." >&2; rc=1; }

# Types of every project (tsconfig.json: each package's src, its tests and the meta-package's client), incremental
# after the build above: like Biome, a failure fails the run, but the tests still run.
echo "[test] tsc -b (types of src, tests and client)" >&2
node_modules/.bin/tsc -b >&2 || { echo "[test] type errors: run node_modules/.bin/tsc -b" >&2; rc=1; }

VITEST=node_modules/vitest/vitest.mjs
reports=()

echo "[test] every project on $("$NODE_DSH" --version) ($NODE_DSH)" >&2
"$NODE_DSH" "$VITEST" run --reporter=default --reporter=json --outputFile.json=.vitest-results.json "$@" || rc=$?
reports+=(.vitest-results.json)

# The pure packages again on the system Node: their promise is Node >= 20.
pure=()
for p in $PURE_PROJECTS; do [ -d "packages/$p" ] && pure+=(--project "$p"); done
for p in $NODE20_PROJECTS; do pure+=(--project "$p"); done
if [ "$#" -eq 0 ] && [ "${#pure[@]}" -gt 0 ] && [ "$(node -p 'process.versions.node.split(".")[0]')" != "$("$NODE_DSH" -p 'process.versions.node.split(".")[0]')" ]; then
  echo "[test] pure packages on the system $(node --version)" >&2
  node "$VITEST" run "${pure[@]}" --reporter=default --reporter=json --outputFile.json=.vitest-results-node20.json || rc=$?
  reports+=(.vitest-results-node20.json)
fi

node scripts/test-summary.mjs "${reports[@]}" || rc=1
exit "$rc"
