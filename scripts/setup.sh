#!/usr/bin/env bash
# Installs the Debian packages vitscope needs (only those missing), the git
# hooks (install_hooks.sh), and builds it into build/. Safe to run again: it
# does nothing that is already done.
# With CI set (as .ci/run has it), any compiler warning fails the build.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/install_packages.sh"
"$here/scripts/install_hooks.sh"
werror=OFF; case "${CI:-}" in ""|0|false) ;; *) werror=ON ;; esac
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release -DVITSCOPE_WERROR=$werror ${VITSCOPE_CMAKE_ARGS:-} >/dev/null
cmake --build "$here/build" -j"$(nproc)"
