#!/usr/bin/env bash
# The test command (npm test): type check, then every Vitest suite (talking HTTP to the
# sandbox). keytar needs a real Secret Service, so on Linux without one we start a private
# D-Bus session with an unlocked gnome-keyring and run inside it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ "$(uname)" = "Linux" ] && [ -z "${LENDING_DESK_KEYRING_READY:-}" ] && command -v dbus-run-session >/dev/null; then
  export LENDING_DESK_KEYRING_READY=1
  exec dbus-run-session -- bash -c '
    echo -n "lending-desk-test" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec bash scripts/run-tests.sh "$@"' bash "$@"
fi

npm run --silent typecheck
mkdir -p test-results
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json "$@" || status=$?
[ -f test-results/unit.json ] && node scripts/test-summary.ts test-results/unit.json unit
exit "$status"
