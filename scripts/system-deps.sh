#!/usr/bin/env bash
# Debian/Ubuntu packages the project needs on Linux: libsecret to build keytar, gnome-keyring
# and D-Bus for a Secret Service in tests, Chromium and Xvfb for end-to-end tests.
# Installs only what is missing; elsewhere it is a no-op.
set -euo pipefail
[ "$(uname)" = "Linux" ] || exit 0
command -v dpkg >/dev/null || { echo "system-deps: not a Debian system; install libsecret (dev), gnome-keyring, dbus and chromium yourself" >&2; exit 0; }

packages=(libsecret-1-dev gnome-keyring dbus-x11 chromium xvfb)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ "${#missing[@]}" -eq 0 ] && exit 0

echo "system-deps: installing ${missing[*]}" >&2
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
$sudo_cmd apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
