#!/usr/bin/env bash
# Checks that the C++ lines a change touches are formatted as .clang-format
# says (clang-format 14, Debian's), leaving every other line alone: the lines
# that differ between BASE and the working tree. Prints what clang-format
# would change and fails when that is anything; `git clang-format BASE`
# applies it. Installs clang-format quietly when it is missing.
#   scripts/check_format.sh [BASE]    (default: the merge base of HEAD and the commit before it)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "check_format: not a git checkout, so no change to check"
  exit 0
fi
if [ $# -gt 0 ]; then
  base=$1
elif git rev-parse --verify -q HEAD~1 >/dev/null; then
  base=$(git merge-base HEAD HEAD~1)
else
  echo "check_format: HEAD has no previous commit here (a first commit or a shallow clone), so no change to check"
  exit 0
fi

if ! dpkg-query -W -f='${Status}' clang-format 2>/dev/null | grep -q "install ok installed"; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing clang-format"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang-format >/dev/null
fi
binary=$(command -v clang-format-14 || command -v clang-format)

out=$(git clang-format --binary "$binary" --extensions c,h,cc,cpp,hpp,inc --diff "$base" 2>&1) || {
  echo "$out"
  echo "check_format: git clang-format failed" >&2
  exit 2
}
if grep -q '^diff --git' <<<"$out"; then
  echo "$out"
  echo "check_format: the lines above, changed since $(git rev-parse --short "$base"), are not formatted as .clang-format says;" \
       "\`git clang-format $(git rev-parse --short "$base")\` formats them" >&2
  exit 1
fi
echo "check_format: the C++ lines changed since $(git rev-parse --short "$base") are formatted"
