# Shared set-up for the README commands: a pinned pnpm without corepack (whose signature check fails
# against the registry on this machine kind), installed once into the ignored .cache/ folder.
PNPM_VERSION=10.34.9
# The packages that promise Node 20 and browsers (no node:* I/O, no DOM, no DSH): tested on both Nodes.
PURE_PROJECTS="syntax-healer core-rules dsh-profile"
# Projects that are not a package folder, also run on the system Node: ai-sdk against ai 6 (what `npm i ai` installs on
# Node 20; ai 7 declares Node >= 22, so the ai-sdk project itself runs on Node 22 only).
NODE20_PROJECTS="ai-sdk-ai6"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

ensure_pnpm() {
  local dir="$REPO_ROOT/.cache/pnpm"
  if [ ! -x "$dir/node_modules/.bin/pnpm" ] || [ "$("$dir/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
    echo "[setup] installing pnpm@$PNPM_VERSION into .cache/pnpm" >&2
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$dir" "pnpm@$PNPM_VERSION" >&2
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
}

install_and_build() {
  cd "$REPO_ROOT"
  pnpm install --frozen-lockfile --reporter=silent >&2
  pnpm run --silent build >&2
}
