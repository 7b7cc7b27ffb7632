#!/usr/bin/env bash
# Sets up (packages, build, default model) and opens the explorer window.
#   scripts/run.sh [IMAGE] [--model DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
source "$here/scripts/model_env.sh"
if [ $# -eq 0 ]; then set -- "$here/assets/dog.jpg"; fi
exec "$here/build/vitscope" "$@"
