"""The commit-msg hook and its installer (scripts/commit-msg,
scripts/install_hooks.sh, run by scripts/setup.sh), in a scratch repository
that holds copies of both, so the checkout's own hooks are never touched:
  - installed into the hooks folder `git rev-parse --git-path hooks` names,
    which a second worktree shares; a second run changes nothing;
  - real `git commit`s: a 73-character subject refused in one line naming
    its length, 72 accepted (72 accented letters too: characters, not bytes),
    a long body and long comment lines above a short subject accepted;
  - a commit-msg hook of the user's own is left byte for byte, with a note;
    an earlier copy of ours is replaced."""
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


def git(repo, *args, stdin=None):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, env=ENV, input=stdin, timeout=60)


def commit(repo, message, n):
    """A real commit of a new file with this message (hooks run); its CompletedProcess."""
    with open(os.path.join(repo, f"f{n}"), "w") as f:
        f.write(str(n))
    git(repo, "add", f"f{n}")
    return git(repo, "commit", "-q", "--cleanup=strip", "-F", "-", stdin=message)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "scripts"))
        for name in ("commit-msg", "install_hooks.sh"):
            shutil.copy2(os.path.join(SRC, "scripts", name), os.path.join(repo, "scripts", name))
        git(repo, "init", "-q")
        git(repo, "add", "scripts")
        check("the scratch repository's first commit (no hook yet)", git(repo, "commit", "-qm", "start").returncode == 0)
        hooks = git(repo, "rev-parse", "--path-format=absolute", "--git-path", "hooks").stdout.strip()
        hook = os.path.join(hooks, "commit-msg")
        if os.path.exists(hook):
            os.remove(hook)
        install = [os.path.join(repo, "scripts", "install_hooks.sh")]
        r = subprocess.run(install, capture_output=True, text=True, env=ENV, timeout=60)
        check("install_hooks.sh runs quietly", r.returncode == 0 and r.stdout == "" and r.stderr == "", r)
        with open(hook, "rb") as a, open(os.path.join(SRC, "scripts", "commit-msg"), "rb") as b:
            check("the hook is installed where git looks for it, executable", a.read() == b.read() and
                  os.access(hook, os.X_OK))
        before = os.stat(hook).st_mtime_ns
        r = subprocess.run(install, capture_output=True, text=True, env=ENV, timeout=60)
        check("a second run changes nothing", r.returncode == 0 and r.stdout == "" and
              os.stat(hook).st_mtime_ns == before, r)

        r = commit(repo, "x" * 73 + "\n", 1)
        check("a 73-character subject is refused", r.returncode != 0, r)
        lines = r.stderr.strip().splitlines()
        check("in one line naming its length and the limit", len(lines) == 1 and "73 characters" in lines[0] and
              "72" in lines[0], r.stderr)
        check("and nothing is committed", git(repo, "rev-list", "--count", "HEAD").stdout.strip() == "1")
        check("a 72-character subject is accepted", commit(repo, "x" * 72 + "\n", 1).returncode == 0)
        check("72 accented letters (144 bytes) are accepted", commit(repo, "é" * 72 + "\n", 2).returncode == 0)
        r = commit(repo, "# " + "a comment git strips " * 5 + "\n\nA short subject\n\n" + "details " * 40 + "\n", 3)
        check("comment lines and a long body around a short subject are accepted", r.returncode == 0, r.stderr)
        check("a 200-character subject after comment lines is refused",
              commit(repo, "# note\n" + "y" * 200 + "\n", 4).returncode != 0)

        worktree = os.path.join(tmp, "worktree")
        git(repo, "worktree", "add", "-q", worktree, "-b", "other")
        r = commit(worktree, "z" * 80 + "\n", 5)
        check("a second worktree shares the hook: its long subject is refused too", r.returncode != 0, r)

        with open(hook, "w") as f:
            f.write("#!/bin/sh\n# the user's own hook\nexit 0\n")
        r = subprocess.run(install, capture_output=True, text=True, env=ENV, timeout=60)
        with open(hook) as f:
            mine = f.read()
        check("a hook of the user's own is left as it was, with a note naming it",
              mine == "#!/bin/sh\n# the user's own hook\nexit 0\n" and hook in r.stdout, r.stdout)
        with open(hook, "w") as f:
            f.write("#!/usr/bin/env bash\n# vitscope's commit-msg hook (an earlier copy)\nexit 0\n")
        subprocess.run(install, capture_output=True, text=True, env=ENV, timeout=60)
        with open(hook, "rb") as a, open(os.path.join(SRC, "scripts", "commit-msg"), "rb") as b:
            check("an earlier copy of ours is replaced", a.read() == b.read())
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
