# Sourced by run.sh and test.sh: fetch the default model into models/ and
# point VITSCOPE_MODEL at it. A mirror folder beside the checkout
# (../shared/models, as CI has) is used instead of the network when present.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${VITSCOPE_MODEL_MIRROR:-}" ] && [ -d "$here/../shared/models" ]; then
  export VITSCOPE_MODEL_MIRROR="$here/../shared/models"
fi
"$here/scripts/fetch_model.sh" vit_tiny_patch16_224.augreg_in21k_ft_in1k
export VITSCOPE_MODEL="${VITSCOPE_MODEL:-$here/models/vit_tiny_patch16_224.augreg_in21k_ft_in1k}"
