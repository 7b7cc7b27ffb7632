"""No command's output may be one of its own inputs, with or without --force
(issue 44): for every command and every output option, naming the photo, a
photo of a list, the list, the comparison photo, the tour, the exercises, a
file of the model or the model's folder itself is refused in one line, exit
2, and the input is left byte for byte as it was. The window's screenshot
and state file too."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, NO_DISPLAY, SRC, Tally
from window_support import Xvfb


def digest(path):
    if os.path.isdir(path):
        return {n: digest(os.path.join(path, n)) for n in sorted(os.listdir(path))}
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    tally = Tally()
    tally.check_model()
    with tempfile.TemporaryDirectory() as tmp:
        photo, other = os.path.join(tmp, "photo.png"), os.path.join(tmp, "other.jpg")
        shutil.copy(CHELSEA, photo)
        shutil.copy(DOG, other)
        gif = os.path.join(tmp, "photo.gif")
        subprocess.run([sys.executable, "-c", f"from PIL import Image; Image.open('{CHELSEA}').save('{gif}')"], check=True)
        listed = os.path.join(tmp, "photos.txt")
        with open(listed, "w") as f:
            f.write(photo + "\n" + other + "\n")
        tour = os.path.join(tmp, "my.tour")
        shutil.copy(os.path.join(SRC, "assets", "tours", sorted(os.listdir(os.path.join(SRC, "assets", "tours")))[0]), tour)
        exercises = os.path.join(tmp, "my.exercises")
        shutil.copy(os.path.join(SRC, "assets", "exercises", "first-look.exercises"), exercises)
        model = os.path.join(tmp, "model")
        shutil.copytree(MODEL, model)
        weights = os.path.join(model, "model.safetensors")
        inputs = [photo, other, gif, listed, tour, exercises, model]
        before = {p: digest(p) for p in inputs}
        m = ["--model", model]
        cases = [
            ("classify -o the photo", ["classify", photo, "-o", photo, *m]),
            ("classify -o a photo of the list", ["classify", "@" + listed, "-o", other, *m]),
            ("classify -o the list", ["classify", "@" + listed, "-o", listed, *m]),
            ("classify -o the weights", ["classify", photo, "-o", weights, *m]),
            ("attention -o the photo", ["attention", photo, "--layer", "0", "--head", "0", "--query", "cls", "-o", photo, *m]),
            ("explain --csv the photo", ["explain", photo, "--question", "scaling", "--layer", "0", "--head", "0", "--patch",
                                         "3,3", "--csv", photo, *m]),
            ("explain -o the comparison photo", ["explain", photo, "--question", "cross", "--layer", "0", "--head", "0",
                                                 "--patch", "3,3", "--compare", other, "-o", other, *m]),
            ("export -o the photo", ["export", photo, "--layer", "0", "--head", "0", "--patch", "3,3", "-o", photo, *m]),
            ("sweep -o the photo", ["sweep", gif, "--layer", "0", "--head", "0", "--path", "1,1", "-o", gif, *m]),
            ("dump -o the model's folder", ["dump", photo, "-o", model, *m]),
            ("tour --claims the tour", ["tour", photo, "--tour", tour, "--claims", tour, *m]),
            ("lesson -o the exercises", ["lesson", photo, "--exercises", exercises, "-o", exercises, *m]),
            ("lesson -o the tour", ["lesson", photo, "--tour", tour, "-o", tour, *m]),
            ("exercises --key the exercises", ["exercises", photo, "--exercises", exercises, "--key", exercises, *m]),
            ("exercises -o the exercises", ["exercises", photo, "--exercises", exercises, "-o", exercises, *m]),
            ("exercises --key the photo", ["exercises", photo, "--exercises", exercises, "--key", photo, *m]),
            ("train -o the model's folder", ["train", "--task", "same_colour", "--steps", "2", "-o", model]),
        ]
        for name, args in cases:
            for force in ([], ["--force"]):
                r = subprocess.run([BIN, *args, *force], capture_output=True, text=True, env=NO_DISPLAY, timeout=600)
                label = name + (" --force" if force else "")
                tally.check(f"{label}: refused in one line", r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr)
        after = {p: digest(p) for p in inputs}
        tally.check("every input left byte for byte as it was", after == before,
                    [p for p in inputs if after[p] != before[p]])
        tally.check("no temporary left", not [n for n in os.listdir(tmp) if "vitscope-" in n or ".tmp" in n], os.listdir(tmp))

        # The window: --screenshot and --state-file on the photo it opens, or on its script.
        script = os.path.join(tmp, "script.txt")
        with open(script, "w") as f:
            f.write("frames 2\nquit\n")
        xvfb = Xvfb(1280, 720)
        try:
            for name, extra in (("--screenshot the photo", ["--screenshot", photo]),
                                ("--state-file the photo", ["--state-file", photo, "--script", script]),
                                ("--state-file the script", ["--state-file", script, "--script", script])):
                r = subprocess.run([BIN, photo, *m, "--no-settings", *extra], capture_output=True, text=True,
                                   env=xvfb.env(), timeout=600)
                tally.check(f"window {name}: refused", r.returncode == 2 and "error" in r.stderr, (r.returncode, r.stderr))
        finally:
            xvfb.close()
        tally.check("the window left every input as it was", digest(photo) == before[photo] and digest(script) ==
                    hashlib.sha256(b"frames 2\nquit\n").hexdigest())
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
