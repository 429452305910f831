#!/usr/bin/env bash
# Runs a command with Node 24 first on PATH, installing it into the project-local .tools/
# folder (from the npm registry's `node` package) when the machine's Node is older, and
# installing the project's npm packages when node_modules is missing or stale.
#   bash scripts/node24.sh npm start
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
node_bin="$tools/node_modules/node/bin"

bash "$root/scripts/system-deps.sh"

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(major node)" -lt 24 ]; then
  if [ ! -x "$node_bin/node" ] || [ "$(major "$node_bin/node")" -lt 24 ]; then
    echo "node24.sh: installing Node 24 into $tools (system Node is $(node --version 2>/dev/null || echo absent))" >&2
    mkdir -p "$tools"
    [ -f "$tools/package.json" ] || echo '{"name":"lending-desk-tools","private":true}' > "$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error node@24 >&2)
  fi
  export PATH="$node_bin:$PATH"
fi

# npm ci when the lockfile changed since the last install (or nothing is installed yet).
stamp="$root/node_modules/.lending-desk-installed"
if [ ! -f "$stamp" ] || [ "$root/package-lock.json" -nt "$stamp" ]; then
  echo "node24.sh: npm ci" >&2
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error >&2)
  touch "$stamp"
fi

cd "$root"
exec "$@"
