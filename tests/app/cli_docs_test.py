"""Every option `vitscope COMMAND --help` lists (the parser's own table,
src/app/cli_spec.cpp) is offered by the bash completion for that command and
named in the man page and the Commands section of docs/command-line-and-python.md
(the guide the README points to for the command line); the completion
offers no option the command refuses. No model needed."""
import os
import re
import subprocess
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, SRC, Tally

tally = Tally()
check = tally.check
COMMANDS = ["", "classify", "attention", "explain", "dump", "export", "info", "tour", "lesson", "sweep"]


def usage_options(command):
    r = subprocess.run([BIN, *([command] if command else []), "--help"], capture_output=True, text=True, timeout=60)
    text = r.stdout if command else r.stdout.split("\n\n")[1]  # the window's block of the overall usage
    return set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*|-o)\b", text)) - {"--help"}


def completion_flags(command):
    """The flags the completion script offers after `vitscope COMMAND -`."""
    script = os.path.join(SRC, "scripts", "vitscope-completion.bash")
    words = ["vitscope"] + ([command, "x.jpg"] if command else []) + ["-"]
    line = " ".join(words)
    r = subprocess.run(["bash", "-c", f"source '{script}'; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
                        "_vitscope; printf '%s\\n' \"${COMPREPLY[@]}\""], capture_output=True, text=True, timeout=60)
    return set(r.stdout.split()) - {"--help"}


def main():
    man = open(os.path.join(SRC, "docs", "vitscope.1"), encoding="utf-8").read().replace("\\-", "-")
    guide = open(os.path.join(SRC, "docs", "command-line-and-python.md"), encoding="utf-8").read()
    section = guide[guide.index("## Commands"):]
    section = section[:section.index("\n## ", 5)]
    for command in COMMANDS:
        name = command or "(the window)"
        options = usage_options(command)
        check(f"{name}: its usage lists options", len(options) > 0 or command == "info", options)
        offered = completion_flags(command)
        check(f"{name}: the completion offers every option of its usage", options <= offered,
              sorted(options - offered))
        check(f"{name}: the completion offers nothing the command refuses", offered <= options,
              sorted(offered - options))
        missing_man = sorted(o for o in options if o not in man)
        check(f"{name}: the man page names every option", not missing_man, missing_man)
        missing_readme = sorted(o for o in options if o not in section)
        check(f"{name}: the command-line guide's Commands section names every option", not missing_readme, missing_readme)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
