#!/usr/bin/env bash
# What the measure suite (npm run test:measure) needs from Debian: native PHP with SQLite and Excimer (the
# sampling profiler of --profile), MariaDB (the database a measurement runs on by default) and php-mysql, Debian's WordPress core
# and bubblewrap (the sandbox the measured PHP runs in), Valgrind and libfaketime (--instructions), gcc and php-dev
# (--profile --instructions builds its PHP extension), Chromium (--browser). Installs the missing ones with apt as root (or sudo);
# elsewhere says what to install and fails. Idempotent: nothing is done when all are present. Also fetches the old
# WordPress core of test/measure/old-core.test.ts (scripts/fetch-old-core.mjs).
set -euo pipefail
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in php-cli php-sqlite3 php-mysql php-excimer wordpress bubblewrap mariadb-server valgrind libfaketime chromium php-dev gcc; do have_pkg "$p" || missing+=("$p"); done
else
  command -v php >/dev/null 2>&1 || missing+=(php-cli php-sqlite3 php-excimer)
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  [[ -f /usr/share/wordpress/wp-settings.php ]] || missing+=(wordpress)
fi
# Debian bullseye's WordPress 5.7 for the old-core test, whatever else is installed.
node "$(dirname "$0")/fetch-old-core.mjs"
((${#missing[@]})) || exit 0
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  # Never a password prompt inside npm test: sudo only when it needs none.
  sudo -n true 2>/dev/null || { echo "[measure] not root (and sudo needs a password): install ${missing[*]} (Debian/Ubuntu: sudo apt-get install -y ${missing[*]}), then run the tests again. On macOS the native measure suite cannot run (bubblewrap and Debian's WordPress are Linux only)." >&2; exit 1; }
  SUDO="sudo -n"
fi
command -v apt-get >/dev/null 2>&1 || { echo "[measure] no apt-get here: install ${missing[*]} with this system's package manager, then run the tests again" >&2; exit 1; }
echo "[measure] apt-get install ${missing[*]}" >&2
$SUDO apt-get update -q
# No service started by the packages' scripts (WP Bench starts a throwaway server per run; a container has no init).
policy=""
if [[ ! -e /usr/sbin/policy-rc.d ]]; then printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null && $SUDO chmod +x /usr/sbin/policy-rc.d && policy=1; fi
rc=0
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" || rc=$?
[[ -n $policy ]] && $SUDO rm -f /usr/sbin/policy-rc.d
exit $rc
