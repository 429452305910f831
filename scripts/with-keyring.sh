#!/usr/bin/env bash
# Runs a command where keytar finds a Secret Service, as the desk's keychain needs one: on Linux
# without one (a headless machine, CI, a container), a private D-Bus session with a keyring of its
# own in a temporary folder, unlocked, never the user's. Elsewhere, or where one was set up
# already (LENDING_DESK_KEYRING_READY), the command runs as it is. Used by the tests
# (scripts/run-tests.sh) and every `npm run bench*`.
#   bash scripts/with-keyring.sh <command> [args…]
set -euo pipefail
if [ "$(uname)" = "Linux" ] && [ -z "${LENDING_DESK_KEYRING_READY:-}" ]; then
  if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
    echo "with-keyring: dbus-run-session and gnome-keyring-daemon are needed for the desk's keychain; install them with: bash scripts/system-deps.sh" >&2
    exit 1
  fi
  export LENDING_DESK_KEYRING_READY=1
  keyring_home="$(mktemp -d)"
  trap 'rm -rf "$keyring_home"' EXIT
  dbus-run-session -- bash -c '
    echo -n "lending-desk-test" | XDG_DATA_HOME="$0" gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec "$@"' "$keyring_home" "$@"
  exit $?
fi
exec "$@"
