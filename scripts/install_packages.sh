#!/usr/bin/env bash
# Installs, quietly, whichever of the Debian packages vitscope needs are
# missing (with sudo when not root). Extra package names may be given.
#   scripts/install_packages.sh [EXTRA_PACKAGE...]
set -euo pipefail
packages=(build-essential cmake pkg-config git curl
  libeigen3-dev libstb-dev libjpeg62-turbo-dev libwebp-dev libexif-dev libzip-dev libcurl4-openssl-dev libssl-dev libgif-dev libimagequant-dev nlohmann-json3-dev libgtest-dev googletest libbenchmark-dev
  libimgui-dev libglfw3-dev libepoxy-dev libegl-dev zlib1g-dev libgl1-mesa-dri libegl-mesa0 fonts-dejavu-core
  xvfb xauth xdotool tesseract-ocr python3 python3-numpy python3-pil python3-torch
  python3-dev pybind11-dev libcairo2-dev poppler-utils
  chromium firefox-esr nodejs "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The lesson page's tests (chromium, firefox-esr): node's test runner, and npm for puppeteer-core.
# Debian's nodejs comes without npm; a nodejs from elsewhere may bundle it.
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
