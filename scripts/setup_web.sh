#!/usr/bin/env bash
# Builds the browser build (docs/browser.md) into build-wasm/vitscope-web/:
# installs Debian's emscripten and dpkg-dev (only what is missing), unpacks
# Debian's source packages of its libraries (web_sources.sh), and builds the
# `wasm` preset (threads) and then the `wasm-single` one (one thread, for
# pages served without COOP/COEP) into the same folder. Safe to run again:
# it does nothing that is already done.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/install_packages.sh" emscripten dpkg-dev
"$here/scripts/web_sources.sh"
cd "$here"
# emscripten's JavaScript tools find their node modules (acorn) through NODE_PATH.
export NODE_PATH=/usr/share/nodejs
for preset in wasm wasm-single; do
  cmake --preset $preset >/dev/null
  cmake --build --preset $preset -j"$(nproc)"
done
