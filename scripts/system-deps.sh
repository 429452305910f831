#!/usr/bin/env bash
# Debian/Ubuntu packages the project needs on Linux: libsecret to build keytar, gnome-keyring
# and D-Bus for a Secret Service in tests, secret-tool (libsecret-tools) to put a password there
# as IT's install tooling does (tests/unit/main/credentials/installed-password.test.ts), Chromium and Xvfb for end-to-end tests, PostgreSQL
# and OpenSSL for the library mirror's tests (each test file starts a cluster of its own in a
# temporary folder, with a test CA made by openssl: tests/support/postgres-cluster.ts).
# Installs only what is missing; elsewhere it is a no-op.
set -euo pipefail
[ "$(uname)" = "Linux" ] || exit 0
command -v dpkg >/dev/null || { echo "system-deps: not a Debian system; install libsecret (dev and its secret-tool), gnome-keyring, dbus, chromium, postgresql and openssl yourself" >&2; exit 0; }

packages=(libsecret-1-dev libsecret-tools gnome-keyring dbus-x11 chromium xvfb postgresql openssl)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ "${#missing[@]}" -eq 0 ] && exit 0

echo "system-deps: installing ${missing[*]}" >&2
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"

# Debian's postgresql package creates a default cluster and starts it through invoke-rc.d. In a
# container without systemd that start may fail the install or leave a server running that
# nothing stops; the tests never use it (they start their own). Debian's own switch for "start
# no service while installing" is a policy-rc.d that exits 101: put one in place for this
# install only, unless the machine already has its own.
policy=/usr/sbin/policy-rc.d
own_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# system-deps.sh: no service starts during this install\nexit 101\n' | $sudo_cmd tee "$policy" >/dev/null
  $sudo_cmd chmod 755 "$policy"
  own_policy=1
fi
remove_policy() { [ -z "$own_policy" ] || $sudo_cmd rm -f "$policy"; }
trap remove_policy EXIT

$sudo_cmd apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null

# Whatever the package started anyway (a machine whose own policy allowed it) is stopped: no
# test may come to rely on a server that only some machines have.
if command -v pg_lsclusters >/dev/null; then
  pg_lsclusters --no-header 2>/dev/null | while read -r version name _port status _rest; do
    if [ "$status" = "online" ]; then
      echo "system-deps: stopping the default PostgreSQL cluster $version/$name the package started" >&2
      $sudo_cmd pg_ctlcluster "$version" "$name" stop || true
    fi
  done
fi
