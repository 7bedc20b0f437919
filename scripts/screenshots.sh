#!/usr/bin/env bash
# Regenerates docs/screenshots/ from the browser tests, never by hand: builds, runs the real-host browser tests that
# write artifacts/*.png (the Settings page inside the real `dsh --profile web`: light and dark in English, light and
# dark in Chinese), then copies those files into docs/screenshots/. The figures on the page are whatever the lab's
# plugin DSH_HOME (.dsh-lab/home/plugin) has counted so far: its counters accumulate across real-host test runs.
# Needs Chromium (/usr/bin/chromium
# or $CHROMIUM_PATH; `.ci/run` installs Debian's). A test that was skipped writes nothing, and this script then fails
# instead of committing an old picture. Last, scripts/analyzer-screenshots.mjs writes the session analyzer's report
# over the real logs at 1,400 and 420 px.
#
#   bash scripts/screenshots.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_pnpm
install_and_build
cd "$REPO_ROOT"
NODE_DSH="$(bash scripts/ensure-node22.sh)"
VITEST=node_modules/vitest/vitest.mjs

# artifacts/<file written by a test>:docs/screenshots/<committed name>
SHOTS=(
  "dsh-web-dashboard-light.png:settings-light.png"
  "dsh-web-dashboard-dark.png:settings-dark.png"
  "dsh-web-settings-zh-light.png:settings-zh-light.png"
  "dsh-web-settings-zh-dark.png:settings-zh-dark.png"
  "dsh-web-settings-420.png:settings-dsh-420.png"
)

for shot in "${SHOTS[@]}"; do rm -f "artifacts/${shot%%:*}"; done
"$NODE_DSH" "$VITEST" run --project dsh-lab tests/plugin-web-dashboard.test.ts tests/plugin-web-settings-page.test.ts

mkdir -p docs/screenshots
for shot in "${SHOTS[@]}"; do
  from="artifacts/${shot%%:*}"
  to="docs/screenshots/${shot##*:}"
  if [ ! -s "$from" ]; then
    echo "screenshots: $from was not written (was the test skipped? is Chromium installed?)" >&2
    exit 1
  fi
  cp "$from" "$to"
  echo "screenshots: $to"
done

# The session analyzer's page over the real logs (when they are on this machine), sections closed.
if [ -d /work/shared/dsh-sessions/real ]; then "$NODE_DSH" scripts/analyzer-screenshots.mjs; fi
