#!/usr/bin/env bash
# Fetches a model folder (model.safetensors + config.json) into models/NAME.
#   scripts/fetch_model.sh [NAME]        NAME defaults to the default model
# With VITSCOPE_MODEL_MIRROR=DIR it copies DIR/NAME instead of downloading
# (CI uses the mirror beside the checkout: ../shared/models).
# VITSCOPE_MODELS_DIR puts the folder somewhere other than models/.
set -euo pipefail
name=${1:-vit_tiny_patch16_224.augreg_in21k_ft_in1k}
here=$(cd "$(dirname "$0")/.." && pwd)
root=${VITSCOPE_MODELS_DIR:-$here/models}
dest="$root/$name"

# Hub repository of each supported model name.
case "$name" in
  vit_tiny_patch16_224.augreg_in21k_ft_in1k|vit_small_patch16_224.augreg_in21k_ft_in1k|\
  vit_base_patch16_224.augreg2_in21k_ft_in1k) repo="timm/$name"; files="model.safetensors config.json" ;;
  deit-tiny-patch16-224|facebook/deit-tiny-patch16-224) name=deit-tiny-patch16-224; repo="facebook/$name"
    dest="$root/$name"; files="model.safetensors config.json preprocessor_config.json" ;;
  dino-vits16|facebook/dino-vits16) name=dino-vits16; repo="facebook/$name"
    dest="$root/$name"; files="model.safetensors config.json preprocessor_config.json" ;;
  *) echo "fetch_model.sh: error: unknown model '$name' (known: vit_tiny_patch16_224.augreg_in21k_ft_in1k," \
          "vit_small_patch16_224.augreg_in21k_ft_in1k, vit_base_patch16_224.augreg2_in21k_ft_in1k," \
          "facebook/deit-tiny-patch16-224, facebook/dino-vits16)" >&2; exit 2 ;;
esac

if [ -f "$dest/model.safetensors" ] && [ -f "$dest/config.json" ]; then
  echo "$dest: already there"; exit 0
fi
tmp="$dest.partial"
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
if [ -n "${VITSCOPE_MODEL_MIRROR:-}" ]; then
  src="$VITSCOPE_MODEL_MIRROR/$name"
  [ -d "$src" ] || { echo "fetch_model.sh: error: $src not found in the mirror" >&2; exit 2; }
  for f in $files; do
    if [ -f "$src/$f" ]; then cp "$src/$f" "$tmp/$f"
    elif [ "$f" != preprocessor_config.json ]; then echo "fetch_model.sh: error: $src/$f missing" >&2; exit 2; fi
  done
else
  for f in $files; do
    curl -fL --retry 3 -o "$tmp/$f" "https://huggingface.co/$repo/resolve/main/$f" ||
      { [ "$f" = preprocessor_config.json ] && rm -f "$tmp/$f"; } ||
      { echo "fetch_model.sh: error: could not download $repo/$f" >&2; exit 2; }
  done
fi
rm -rf "$dest"; mv "$tmp" "$dest"; trap - EXIT
echo "$dest: ready"
