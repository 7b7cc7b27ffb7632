#!/usr/bin/env bash
# Fetches a known model (assets/models.json, the list the window's File > Get a
# model… shows too) into models/FOLDER: its weights (the first of the listed
# weight files the server has: model.safetensors, else pytorch_model.bin),
# config.json, and preprocessor_config.json where the model has one.
#   scripts/fetch_model.sh [NAME]        NAME defaults to the default model
#   scripts/fetch_model.sh --urls NAME   prints what it would ask for, "weight|file|optional URL" a line
#   scripts/fetch_model.sh --list        the known names
# VITSCOPE_MODEL_MIRROR serves FOLDER/FILE instead of the hub: a folder (or
# file://DIR) is copied from, an http(s):// URL downloaded from (CI uses the
# mirror beside the checkout: ../shared/models). VITSCOPE_MODELS_DIR puts the
# folder somewhere other than models/. Files arrive in a hidden folder of this
# fetch's own, which becomes FOLDER only when everything is there; a FOLDER
# that exists with other files in it is never deleted (the fetch is refused).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "fetch_model.sh: error: $*" >&2; exit 2; }
mode=fetch
case "${1:-}" in
  --urls) mode=urls; shift ;;
  --list) mode=list ;;
esac
name=${1:-vit_tiny_patch16_224.augreg_in21k_ft_in1k}

# The catalogue's entry as lines "folder F", "repo R", "weight W", "file F", "optional F".
entry=$(python3 - "$here/assets/models.json" "$mode" "$name" <<'EOF'
import json, sys
models = json.load(open(sys.argv[1]))["models"]
if sys.argv[2] == "list":
    print("\n".join(m["name"] for m in models))
    sys.exit()
m = next((m for m in models if sys.argv[3] in (m["name"], m["folder"])), None)
if m is None:
    sys.exit(f"fetch_model.sh: error: unknown model '{sys.argv[3]}' (known: {', '.join(m['name'] for m in models)})")
print("folder", m["folder"])
print("repo", m["repo"])
for kind, key in (("weight", "weights"), ("file", "files"), ("optional", "optional")):
    for f in m[key]:
        print(kind, f)
EOF
) || exit 2
if [ "$mode" = list ]; then echo "$entry"; exit 0; fi

folder= repo= weights=() files=() optional=()
while read -r kind value; do
  case "$kind" in
    folder) folder=$value ;;
    repo) repo=$value ;;
    weight) weights+=("$value") ;;
    file) files+=("$value") ;;
    optional) optional+=("$value") ;;
  esac
done <<< "$entry"

# Where FILE comes from: the hub, or the mirror's FOLDER/FILE.
mirror=${VITSCOPE_MODEL_MIRROR:-}
mirror=${mirror#file://}
copy=""
if [ -z "$mirror" ]; then base="https://huggingface.co/$repo/resolve/main"
elif [[ $mirror == *://* ]]; then base="${mirror%/}/$folder"
else base="$mirror/$folder"; copy=1
fi

if [ "$mode" = urls ]; then
  for f in "${weights[@]}"; do echo "weight $base/$f"; done
  for f in "${files[@]}"; do echo "file $base/$f"; done
  for f in "${optional[@]}"; do echo "optional $base/$f"; done
  exit 0
fi

root=${VITSCOPE_MODELS_DIR:-$here/models}
dest="$root/$folder"
complete() {
  [ -f "$dest/config.json" ] || return 1
  for w in "${weights[@]}"; do [ -f "$dest/$w" ] && return 0; done
  return 1
}
if complete; then echo "$dest: already there"; exit 0; fi
mkdir -p "$root"
# The lock the window's File > Get a model takes too (MODELS/.FOLDER.lock):
# two fetches of one model take turns instead of breaking each other.
exec 9>"$root/.$folder.lock"
flock 9
if complete; then echo "$dest: already there"; exit 0; fi
# A folder of that name holding anything else is the user's: never deleted.
if [ -e "$dest" ] && { [ ! -d "$dest" ] || [ -n "$(ls -A "$dest")" ]; }; then
  die "$dest exists and is not a complete model ($(ls -A "$dest" 2>/dev/null | head -3 | tr '\n' ' ')): move it away, or use VITSCOPE_MODELS_DIR"
fi
# A folder of this fetch's own (the dot hides it from the window's model list).
tmp=$(mktemp -d "$root/.$folder.fetch-XXXXXX")
chmod 755 "$tmp"   # mktemp makes it private; a model folder is as readable as models/
trap 'rm -rf "$tmp"' EXIT

# get FILE: 0 when fetched, 1 when the server has no such file; anything else ends the script.
get() {
  local f=$1 code
  if [ -n "$copy" ]; then
    [ -f "$base/$f" ] || return 1
    cp "$base/$f" "$tmp/$f" || die "could not copy $base/$f"
    return 0
  fi
  if code=$(curl -fsSL --retry 3 -w '%{http_code}' -o "$tmp/$f" "$base/$f" 2>"$tmp/.curl-error"); then
    rm -f "$tmp/.curl-error"; return 0
  fi
  rm -f "$tmp/$f"
  [ "$code" = 404 ] && return 1
  die "could not download $base/$f: $(tr '\n' ' ' < "$tmp/.curl-error")"
}

got=""
for w in "${weights[@]}"; do
  if get "$w"; then got=$w; break; fi
done
[ -n "$got" ] || die "$base has none of ${weights[*]}"
for f in "${files[@]}"; do get "$f" || die "$base/$f not found"; done
for f in "${optional[@]}"; do get "$f" || true; done
rm -f "$tmp/.curl-error"
[ -d "$dest" ] && rmdir "$dest"   # empty (checked above, under the lock)
mv -T "$tmp" "$dest"; trap - EXIT
echo "$dest: ready ($got)"
