"""scripts/fetch_model.sh with a mirror folder: copies the model whole, refuses
unknown names and missing mirror entries without leaving a partial folder."""
import filecmp
import os
import subprocess
import sys
import tempfile

from script_support import MIRROR, MODEL_NAME as NAME, SRC, Tally

SCRIPT = os.path.join(SRC, "scripts", "fetch_model.sh")
tally = Tally()
check = tally.check


with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, VITSCOPE_MODEL_MIRROR=MIRROR, VITSCOPE_MODELS_DIR=tmp)
    r = subprocess.run(["bash", SCRIPT, NAME], env=env, capture_output=True, text=True)
    got = os.path.join(tmp, NAME)
    check("copies the default model from the mirror", r.returncode == 0 and all(
        filecmp.cmp(os.path.join(MIRROR, NAME, f), os.path.join(got, f), shallow=False)
        for f in ("model.safetensors", "config.json")), r.stderr)
    r = subprocess.run(["bash", SCRIPT, NAME], env=env, capture_output=True, text=True)
    check("a second run keeps what is there", r.returncode == 0 and "already there" in r.stdout, r.stdout + r.stderr)
    r = subprocess.run(["bash", SCRIPT, "resnet50"], env=env, capture_output=True, text=True)
    check("unknown name: exit 2, one line", r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
          and "unknown model" in r.stderr, r.stderr)
    r = subprocess.run(["bash", SCRIPT, "facebook/dino-vits16"], env=env, capture_output=True, text=True)
    check("name missing from the mirror: exit 2, nothing left", r.returncode == 2
          and sorted(os.listdir(tmp)) == [NAME], r.stderr + str(os.listdir(tmp)))

sys.exit(tally.finish())
