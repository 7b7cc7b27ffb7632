"""Every path of the repository that the documentation names exists, so a
reader who follows one finds the file. Read: README.md, TESTING.md,
BENCHMARKS.md, every Markdown file under docs/, and the comments of the
sources under src/, bench/ and fuzz/. Checked:
- links [text](target): the target file, and its #anchor among the target's
  headings (GitHub's slugs);
- paths from the repository's root (`src/...`, `tests/...`, `scripts/...`,
  `docs/...`, TESTING.md, ...), with globs (`tour*.h`, `global.*`) and
  braces (`NAME.{h,cpp}`) expanded;
- paths from src/ as includes spell them (`ui/widgets/theme.h`,
  `vit/forward/backward`);
- file names alone (`window_main.cpp`, `page_figure.h`): some file of the
  repository has that name.
A component in capitals (NAME, ROOM, LEVEL) is a placeholder and its path is
not checked. No build or model needed."""
import glob
import os
import re
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import SRC, Tally

TOP = ("src", "tests", "scripts", "bench", "docs", "assets", "shaders", "web", "python", "examples", "fuzz",
       "third_party", ".ci")
TOP_FILES = ("README.md", "TESTING.md", "BENCHMARKS.md", "CMakeLists.txt", ".gitignore", ".clang-format")
LAYERS = ("vit", "gfx", "session", "ui", "app")
PATH_CHARS = r"[\w.*{},/+-]"
# Before a path: not part of a longer path or word (share/vitscope/..., ../shared/README.md, $X/tests).
BEFORE = r"(?<![\w./~$<>*-])"
ROOTED = re.compile(BEFORE + r"((?:" + "|".join(re.escape(t) for t in TOP) + r")/" + PATH_CHARS + r"*"
                    r"|(?:" + "|".join(re.escape(f) for f in TOP_FILES) + r")(?![\w-]))")
FROM_SRC = re.compile(BEFORE + r"((?:" + "|".join(LAYERS) + r")/[\w/.*{},-]*[\w*}])")
BARE = re.compile(BEFORE + r"([\w-]+\.(?:h|cpp|inc|py|sh|frag|vert|glsl|mjs|js|cmake))(?![\w/-])")
LINK = re.compile(r"\]\(([^)\s]+)\)")
# File names the documents mention that are not the repository's: libjpeg's header, Node.js, and
# PyTorch's and Pillow's own sources, named where vitscope follows them.
FOREIGN = {"jpeglib.h", "Node.js", "llama.cpp", "serialization.py", "_utils.py", "pickle.py", "JpegImagePlugin.py",
           "WebPImagePlugin.py"}
# Files the browser build writes into its folder (web/app/web_app.cmake), named where docs/browser.md explains them.
FOREIGN |= {"vitscope.js", "vitscope-single.js"}
SKIP_DIRS = {".git", "node_modules", "models", "Testing", "__pycache__"}


def repo_files():
    """Every file name of the checkout (build folders and models left out), for the bare-name check."""
    names = set()
    for root, dirs, files in os.walk(SRC):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        names.update(files)
    return names


def expand_braces(path):
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [q for alt in m.group(1).split(",") for q in expand_braces(path[:m.start()] + alt + path[m.end():])]


def is_placeholder(path):
    return any(re.fullmatch(r"[A-Z][A-Z0-9_]+", part) or re.search(r"NAME|ROOM|LEVEL|FOLDER", part)
               for part in re.split(r"[/.]", path) if part)


def exists(path):
    """The path (globs and braces allowed) names something in the checkout; a path
    without an extension may also name its .h/.cpp pair (vit/forward/backward)."""
    for p in expand_braces(path.rstrip("/")):
        full = os.path.join(SRC, p)
        if glob.glob(full) or ("." not in os.path.basename(p) and glob.glob(full + ".*")):
            return True
    return False


def clean(path):
    path = path.rstrip(".,:;")
    while path.count("{") < path.count("}") and path.endswith("}"):
        path = path[:-1]
    return path


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(md_path):
    with open(md_path, encoding="utf-8") as f:
        text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
    return {slug(h) for h in re.findall(r"^#+\s+(.*)$", text, re.M)}


def doc_texts():
    """(file, text to read) for every document and every source's comments."""
    docs = ["README.md", "TESTING.md", "BENCHMARKS.md"]
    docs += sorted(os.path.relpath(p, SRC) for p in glob.glob(os.path.join(SRC, "docs", "**", "*.md"), recursive=True))
    for d in docs:
        with open(os.path.join(SRC, d), encoding="utf-8") as f:
            yield d, f.read()
    for top in ("src", "bench", "fuzz"):
        for p in sorted(glob.glob(os.path.join(SRC, top, "**", "*"), recursive=True)):
            if not p.endswith((".h", ".cpp", ".inc")) or "node_modules" in p:
                continue
            with open(p, encoding="utf-8") as f:
                text = f.read()
            comments = re.findall(r"//[^\n]*|/\*.*?\*/", text, re.S)
            yield os.path.relpath(p, SRC), "\n".join(comments)


def problems_in(name, text, names):
    """The paths this text names that do not exist, as 'FILE: path (why)'."""
    found = []
    is_md = name.endswith(".md")
    for m in (LINK.finditer(text) if is_md else ()):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(SRC, os.path.dirname(name), path)) if path else os.path.join(SRC, name)
        if not os.path.exists(full):
            found.append(f"{name}: link {target} (no such file)")
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            found.append(f"{name}: link {target} (no such heading in {os.path.relpath(full, SRC)})")
    # Code blocks in Markdown are read too: their commands name scripts and files.
    for m in ROOTED.finditer(text):
        path = clean(m.group(1))
        if path.endswith("/") and path.count("/") == 1 and path[:-1] in TOP:
            continue
        if not is_placeholder(path) and not exists(path):
            found.append(f"{name}: {path}")
    for m in FROM_SRC.finditer(text):
        path = clean(m.group(1))
        if is_placeholder(path) or exists(path) or exists(os.path.join("src", path)):
            continue
        found.append(f"{name}: {path} (from src/)")
    for m in BARE.finditer(text):
        base = m.group(1)
        if base in FOREIGN or is_placeholder(base) or "*" in base:
            continue
        if base not in names:
            found.append(f"{name}: {base} (no file of that name)")
    return found


def main():
    tally = Tally()
    names = repo_files()
    documents = 0
    problems = []
    for name, text in doc_texts():
        documents += 1
        problems += problems_in(name, text, names)
    tally.check(f"the documents and source comments read ({documents})", documents > 400, documents)
    for p in problems:
        print("  " + p)
    tally.check("every repository path they name exists", not problems, f"{len(problems)} missing (listed above)")

    # The checks can fail: a made-up path, a link to a missing heading and a bare
    # name that no file has are each found.
    bogus = problems_in("README.md", "See `src/vit/no_such_file.h`, [x](TESTING.md#no-such-heading), "
                        "`ui/no_such.h` and `no_such_file.cpp`; `src/ui/panels/NAME_panel.cpp` is a placeholder.",
                        names)
    tally.check("a missing path, heading, include path and file name are each reported", len(bogus) == 4, bogus)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
