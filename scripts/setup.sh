#!/usr/bin/env bash
# Installs the Debian packages vitscope needs (only those missing) and builds
# it into build/. Safe to run again: it does nothing that is already done.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/install_packages.sh"
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release ${VITSCOPE_CMAKE_ARGS:-} >/dev/null
cmake --build "$here/build" -j"$(nproc)"
