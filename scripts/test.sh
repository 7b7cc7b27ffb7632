#!/usr/bin/env bash
# Sets up (packages, build, default model) and runs every test with ctest.
# GUI tests start their own Xvfb. With CI set, the build is -Werror (setup.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
source "$here/scripts/model_env.sh"
cd "$here/build"
ctest --output-on-failure --timeout 900 -j"$(nproc)" "$@"
