#!/usr/bin/env bash
# Unpacks the Debian source packages the browser build compiles with
# emscripten (third_party/web_dependencies.cmake): Dear ImGui and the photo,
# archive and animation libraries the desktop build links from Debian's
# binary packages. From Debian's own archive only, through a private apt
# configuration (a deb-src entry of its own: the machine's apt sources are
# left as they are). Safe to run again: a package already unpacked is kept.
#   scripts/web_sources.sh [DIR]   (default: .cache/debian-sources in the checkout)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mkdir -p "${1:-$here/.cache/debian-sources}" && cd "${1:-$here/.cache/debian-sources}" && pwd)
packages=(imgui libjpeg-turbo libwebp libexif libzip zlib giflib libimagequant)
missing=()
for p in "${packages[@]}"; do
  compgen -G "$dir/$p-[0-9]*/" >/dev/null || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial"
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
  >"$dir/apt/sources.list"
apt_options=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -qq)
apt-get "${apt_options[@]}" update
cd "$dir"
for p in "${missing[@]}"; do
  echo "unpacking Debian's source of $p"
  apt-get "${apt_options[@]}" source --only-source "$p" >/dev/null
done
rm -f ./*.dsc ./*.tar.* ./*.asc
