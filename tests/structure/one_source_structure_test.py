"""Lists kept in one place (issue 46): no code in src/ outside its one place
spells what the list holds, so what reads one reads the list and a new entry
reaches it. Comments may name them.
  - The Learning lab's tasks: src/vit/train/task_list.inc, by name ("left_of")
    or enumerator (Task::LeftOf); tasks.cpp too, whose samplers are called
    after their tasks (tests/vit/train/task_probe.cpp builds a third task).
  - A model folder's weight files: src/vit/formats/model_files.h
    ("model.safetensors", "pytorch_model.bin").
  - What a model family does its own way: its file in src/vit/model/families/
    (the generic readers branch on no "deit", "dino", "dinov2", "hf-deit"...)."""
import os
import re
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import SRC, Tally, source

COMMENT = re.compile(r"(^|\s)//.*$")


def code_lines():
    """(path relative to SRC, line number, the line without its // comment) of every C++ file in src/."""
    for root, _, names in os.walk(os.path.join(SRC, "src")):
        for name in sorted(names):
            if name.endswith((".h", ".cpp", ".inc")):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        yield os.path.relpath(path, SRC), number, COMMENT.sub("", line)


def spelt_outside(tally, what, pattern, allowed, place=None):
    """No line of code outside the files `allowed` (called `place`) matches `pattern`."""
    place = place or ", ".join(sorted(allowed))
    found = [f"{rel}:{number} spells {m.group(0)}" for rel, number, line in code_lines()
             if rel not in allowed for m in [pattern.search(line)] if m]
    for where in found:
        tally.check(f"{what} spelt outside {place}", False, where)
    tally.check(f"no code outside {place} spells {what}", not found, f"{len(found)} places")


def main():
    tally = Tally()
    files = len({rel for rel, _, _ in code_lines()})
    tally.check(f"{files} source files scanned", files > 50, files)

    rows = re.findall(r"^TASK\((\w+), (\w+),", source("src/vit/train/task_list.inc"), re.M)
    tally.check("task_list.inc lists the tasks", len(rows) >= 2, rows)
    tasks = re.compile(r"\b(" + "|".join(w for row in rows for w in row) + r")\b")
    spelt_outside(tally, "a task", tasks, {os.path.join("src", "vit", "train", f) for f in ("task_list.inc", "tasks.cpp")})

    names = re.findall(r'"([\w.]+)"', re.search(r"kWeightFileNames = \{([^}]*)\}", source("src/vit/formats/model_files.h")).group(1))
    tally.check("model_files.h lists the weight files", "model.safetensors" in names and len(names) >= 2, names)
    weights = re.compile("|".join(re.escape(n) for n in names))
    spelt_outside(tally, "a weight file's name", weights, {os.path.join("src", "vit", "formats", "model_files.h")})

    families = os.path.join("src", "vit", "model", "families")
    family_files = {os.path.join(families, f) for f in os.listdir(os.path.join(SRC, families))}
    tally.check("the families have their files", len(family_files) >= 5, sorted(family_files))
    spelt_outside(tally, "a family's model_type, scheme or name", re.compile(r'"[^"]*(deit|dino)[^"]*"'), family_files,
                  families + os.sep)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
