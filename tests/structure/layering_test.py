"""The layers depend one way: vit -> gfx -> session -> ui -> app. Every
#include "layer/..." in src/ must name a layer at or below the includer's own,
and the GL-free layers must not include GL, GLFW or ImGui headers. Plain
includes ("file.h") must resolve inside the includer's own folder.
Inside vit and ui the folders are levels too (INNER_ORDER): a file may include
from its own folder or one below it, never from one above; a level's
subfolders belong to it."""
import os
import re
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import SRC, Tally

ORDER = ["vit", "gfx", "session", "ui", "app"]
INNER_ORDER = {
    "vit": ["base", "model", "image", "kernels", "formats", "forward", "analysis", "train"],
    "ui": ["widgets", "questions", "panels", "figures"],
}
# Headers a layer may not include at all, whatever the order says.
FORBIDDEN = {
    "vit": re.compile(r"^(epoxy|GLFW|EGL|GL|imgui|backends)/|^imgui"),
    "session": re.compile(r"^(epoxy|GLFW|EGL|GL|imgui|backends)/|^imgui"),
}
# gfx may be included by session only through its GL-free style header.
SESSION_GFX_ALLOWED = {"gfx/overlay_style.h", "gfx/style_names.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(path):
    return os.path.relpath(path, os.path.join(SRC, "src")).split(os.sep)[0]


def inner_problem(layer, path, target):
    """Why an include inside vit or ui breaks its folder order, or None."""
    if layer not in INNER_ORDER:
        return None
    levels = INNER_ORDER[layer]
    own = os.path.relpath(path, os.path.join(SRC, "src", layer)).split(os.sep)
    # A level's subfolder (vit/model/families) is part of that level.
    if len(own) < 2 or own[0] not in levels:
        return f"{layer} files live in one of its folders {levels}"
    parts = target.split("/")
    if parts[0] != layer:
        return None
    if len(parts) < 3 or parts[1] not in levels:
        return f"name the {layer} folder: one of {levels}"
    if levels.index(parts[1]) > levels.index(own[0]):
        return f"upward inside {layer}: {own[0]} sits below {parts[1]}"
    return None


def main():
    tally = Tally()
    problems = []
    files = 0
    for root, _, names in os.walk(os.path.join(SRC, "src")):
        for name in names:
            if not name.endswith((".h", ".cpp", ".inc")):
                continue
            path = os.path.join(root, name)
            layer = layer_of(path)
            files += 1
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    kind, target = m.groups()
                    where = f"{os.path.relpath(path, SRC)}:{number} includes {target}"
                    if layer in FORBIDDEN and FORBIDDEN[layer].search(target):
                        problems.append(where + f" (no GL or ImGui in {layer})")
                    if kind == "<":
                        continue
                    first = target.split("/")[0]
                    if first in ORDER:
                        if ORDER.index(first) > ORDER.index(layer):
                            problems.append(where + f" (upward: {layer} sits below {first})")
                        why = inner_problem(layer, path, target)
                        if why:
                            problems.append(where + f" ({why})")
                        if layer == "session" and first == "gfx" and target not in SESSION_GFX_ALLOWED:
                            problems.append(where + " (session may use only gfx's GL-free style headers)")
                    elif not os.path.exists(os.path.join(root, target)):
                        problems.append(where + " (not a file beside it: name the layer)")
    tally.check(f"{files} source files scanned", files > 50, files)
    for p in problems:
        tally.check("one-way include", False, p)
    tally.check("no include reaches upward or sideways into GL", not problems, f"{len(problems)} problems")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
