#!/usr/bin/env bash
# Installs the Debian packages vitscope needs (only those missing) and builds
# it into build/. Safe to run again: it does nothing that is already done.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
packages=(build-essential cmake pkg-config git curl
  libeigen3-dev libstb-dev nlohmann-json3-dev libgtest-dev googletest libbenchmark-dev
  libimgui-dev libglfw3-dev libepoxy-dev libegl-dev zlib1g-dev libgl1-mesa-dri libegl-mesa0 fonts-dejavu-core
  xvfb xauth xdotool python3-numpy python3-pil)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release ${VITSCOPE_CMAKE_ARGS:-} >/dev/null
cmake --build "$here/build" -j"$(nproc)"
