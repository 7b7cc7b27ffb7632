#!/usr/bin/env bash
# Installs the project's git hooks (scripts/commit-msg: subjects within 72
# characters) into the checkout's hooks folder, which every worktree of the
# repository shares (or core.hooksPath). A hook of that name the user put
# there is left alone, with a note; an earlier copy of ours is updated.
# Nothing to do outside a git checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
hooks=$(git -C "$here" rev-parse --path-format=absolute --git-path hooks 2>/dev/null) || exit 0
ours="$here/scripts/commit-msg"
target="$hooks/commit-msg"
if [ -e "$target" ] || [ -L "$target" ]; then
  cmp -s "$ours" "$target" && exit 0
  if ! grep -q "^# vitscope's commit-msg hook" "$target" 2>/dev/null; then
    echo "setup: $target is not vitscope's: left as it is (scripts/commit-msg keeps subjects within 72 characters)"
    exit 0
  fi
fi
mkdir -p "$hooks"
tmp=$(mktemp "$hooks/.commit-msg.XXXXXX")
cp "$ours" "$tmp"
chmod 755 "$tmp"
mv -f "$tmp" "$target"
