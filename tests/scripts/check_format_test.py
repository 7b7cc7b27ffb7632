"""scripts/check_format.sh in a scratch repository holding copies of it and
of .clang-format: on a first commit it passes, saying there is nothing to
compare with; a commit adding a badly formatted C++ line fails (exit 1) and
shows the line as clang-format would write it; a commit touching only
formatted lines passes even where untouched lines of the file are not
formatted; an uncommitted change is checked too; non-C++ files are not read.
And .clang-format keeps the project's style: the sources it was tuned on
change in few lines (at most 5 % of the lines of src/vit/analysis, which
were formatted by hand), none of them in a sample written to match it."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import SRC, Tally  # noqa: E402

tally = Tally()
check = tally.check
ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@example.org", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
FORMATTED = """#include <string>

namespace demo {

// A function as the project writes them.
int twice(int x) { return 2 * x; }

std::string name(int kind) {
    if (kind == 0) return "zero";
    for (int i = 0; i < kind; ++i) kind -= 1;
    switch (kind) {
        case 1: return "one";
        default: return "many";
    }
}

}  // namespace demo
"""


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, env=ENV, timeout=60)


def write(repo, name, text):
    with open(os.path.join(repo, name), "w") as f:
        f.write(text)


def check_format(repo, *args):
    return subprocess.run([os.path.join(repo, "scripts", "check_format.sh"), *args], capture_output=True, text=True,
                          env=ENV, timeout=600)


def commit_all(repo, message):
    git(repo, "add", "-A")
    return git(repo, "commit", "-q", "--no-verify", "-m", message)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "scripts"))
        shutil.copy2(os.path.join(SRC, "scripts", "check_format.sh"), os.path.join(repo, "scripts"))
        shutil.copy2(os.path.join(SRC, ".clang-format"), repo)
        git(repo, "init", "-q")
        write(repo, "demo.cpp", FORMATTED.replace("int twice(int x) { return 2 * x; }",
                                                  "int twice( int x ){return 2*x;}  // left as it was"))
        commit_all(repo, "start")
        r = check_format(repo)
        check("a first commit: passes, nothing to compare with", r.returncode == 0 and "no previous commit" in r.stdout,
              r)

        write(repo, "demo.cpp", open(os.path.join(repo, "demo.cpp")).read().replace(
            '    if (kind == 0) return "zero";', '    if (kind == 0) return "none";'))
        write(repo, "notes.md", "int  x ( ) ;\n")
        commit_all(repo, "touch a formatted line")
        r = check_format(repo)
        check("a change to formatted lines passes; the untouched badly formatted line and the .md are not read",
              r.returncode == 0 and "are formatted" in r.stdout, r)

        write(repo, "demo.cpp", open(os.path.join(repo, "demo.cpp")).read().replace(
            "}  // namespace demo", "int  thrice (int x){ return 3*x; }\n\n}  // namespace demo"))
        r = check_format(repo)
        check("an uncommitted badly formatted line fails", r.returncode == 1, r)
        commit_all(repo, "a badly formatted line")
        r = check_format(repo)
        check("the committed line fails, exit 1", r.returncode == 1, r)
        check("the output shows it as clang-format writes it", "+int thrice(int x) { return 3 * x; }" in r.stdout and
              "-int  thrice (int x){ return 3*x; }" in r.stdout, r.stdout)
        check("and says how to format it", "git clang-format" in r.stderr, r.stderr)
        check("the line left as it was is not in the output", "twice" not in r.stdout, r.stdout)
        base = git(repo, "rev-parse", "HEAD~2").stdout.strip()
        check("BASE given: the lines changed since then, the bad one among them", check_format(repo, base).returncode == 1)

        # The style itself: a file written in the project's style comes out unchanged.
        sample = os.path.join(tmp, "sample.cpp")
        write(tmp, "sample.cpp", FORMATTED)
        shutil.copy2(os.path.join(SRC, ".clang-format"), tmp)
        binary = shutil.which("clang-format-14") or shutil.which("clang-format")
        out = subprocess.run([binary, sample], capture_output=True, text=True, timeout=60).stdout
        check("a sample in the project's style is left as it is", out == FORMATTED, out)
        changed = total = 0
        folder = os.path.join(SRC, "src", "vit", "analysis")
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(folder, name)
            original = open(path, encoding="utf-8").read().splitlines()
            formatted = subprocess.run([binary, f"--style=file:{os.path.join(SRC, '.clang-format')}", path],
                                       capture_output=True, text=True, timeout=60).stdout.splitlines()
            kept = set(formatted)
            total += len(original)
            changed += sum(1 for line in original if line not in kept and len(line) <= 120)
        check(f"src/vit/analysis: {changed} of {total} lines within 120 columns change (at most 5 %)",
              total > 1000 and changed <= 0.05 * total)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
