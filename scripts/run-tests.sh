#!/usr/bin/env bash
# The test command (npm test): type check, a build, every Vitest suite (talking HTTP to the
# sandbox), then the Playwright specs on both hosts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# keytar needs a Secret Service: on Linux a private D-Bus session with an unlocked keyring of its
# own (scripts/with-keyring.sh), and this script again inside it.
if [ "$(uname)" = "Linux" ] && [ -z "${LENDING_DESK_KEYRING_READY:-}" ]; then
  exec bash scripts/with-keyring.sh bash scripts/run-tests.sh "$@"
fi

rm -rf test-results/unit.json test-results/e2e.json
mkdir -p test-results
status=0

echo "== type check (each process on its own, refusing imports across layers; then everything)"
npm run --silent typecheck || status=1

# Built before Vitest: main's start-up and the packaged-layout tests read out/.
echo "== build (electron-vite)"
if npx electron-vite build >test-results/build.log 2>&1; then
  built=1
  echo "built out/main, out/preload, out/renderer"
else
  built=0
  cat test-results/build.log
  echo "build failed: end-to-end tests will not run"
  status=1
fi

echo "== unit tests (Vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json || status=1

if [ "$built" = 1 ]; then
  echo "== end-to-end tests (Playwright: Electron host and Chromium host)"
  npx playwright test -c tests/e2e/playwright.config.ts || status=1
fi

node scripts/test-summary.ts test-results/unit.json test-results/e2e.json
exit "$status"
