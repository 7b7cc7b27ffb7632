"""The command line's lists and what documents them agree. The lists are the
parser's own table (src/app/cli_spec.cpp, `vitscope --help`), the Questions
(src/vit/analysis/question_list.inc) and the Learning lab's tasks
(src/vit/train/task_list.inc). For every command `vitscope --help` lists:
the bash completion (made from those lists at build time, src/app/completion)
offers every option its usage names and none it refuses, and the man page and
the command-line guide's Commands section (docs/command-line-and-python.md)
name every option. The man page names every
command, and lists exactly the Questions `explain --question` takes and the
tasks `train --task` takes; the completion offers exactly those names. No
model needed."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, SRC, Tally, source

tally = Tally()
check = tally.check
# The build writes the completion beside the binary.
COMPLETION = os.path.join(os.path.dirname(BIN), "vitscope-completion.bash")


def commands():
    """The commands `vitscope --help` lists, the window ("") first."""
    r = subprocess.run([BIN, "--help"], capture_output=True, text=True, timeout=60)
    names = re.findall(r"^usage: vitscope (\w[\w-]*)", r.stdout, re.M)
    return [""] + list(dict.fromkeys(n for n in names if n != "COMMAND"))


def usage_options(command):
    """The options `vitscope COMMAND --help` names in the command's own usage block."""
    r = subprocess.run([BIN, *([command] if command else []), "--help"], capture_output=True, text=True, timeout=60)
    # `vitscope --help` and `vitscope help --help` print every command's block: take this command's.
    blocks = re.split(r"\n(?=usage: vitscope )", r.stdout)
    head = f"usage: vitscope {command} " if command else "usage: vitscope ["
    text = next((b for b in blocks if (b + " ").startswith(head) and "[COMMAND] [ARGS...]" not in b), "")
    options = set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*|-o)\b", text)) - {"--help"}
    return options - {"--version"} if command == "version" else options  # `--version` is the command itself


def complete(*before, cur=""):
    """What the completion script offers for `vitscope BEFORE... CUR` (CUR being completed), in an empty folder."""
    words = ["vitscope", *before, cur]
    script = (f"source '{COMPLETION}'; COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); "
              f"COMP_CWORD={len(words) - 1}; _vitscope; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    with tempfile.TemporaryDirectory() as empty:
        r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=empty)
    return set(r.stdout.split())


def completion_flags(command):
    """The flags the completion script offers after `vitscope COMMAND -`."""
    return complete(*([command, "x.jpg"] if command else []), cur="-") - {"--help"}


def main():
    man = open(os.path.join(SRC, "docs", "vitscope.1"), encoding="utf-8").read().replace("\\-", "-")
    guide = open(os.path.join(SRC, "docs", "command-line-and-python.md"), encoding="utf-8").read()
    section = guide[guide.index("## Commands"):]
    section = section[:section.index("\n## ", 5)]
    check("the build made the completion script", os.path.isfile(COMPLETION), COMPLETION)

    listed = commands()
    check("`vitscope --help` lists the commands", {"classify", "explain", "train", "help", "version"} <= set(listed), listed)
    check("the completion offers every command and nothing else", complete() == set(listed[1:]), sorted(complete()))
    for command in listed:
        name = command or "(the window)"
        options = usage_options(command)
        offered = completion_flags(command)
        check(f"{name}: the completion offers every option of its usage", options <= offered, sorted(options - offered))
        check(f"{name}: the completion offers nothing the command refuses", offered <= options, sorted(offered - options))
        missing_man = sorted(o for o in options if o not in man)
        check(f"{name}: the man page names every option", not missing_man, missing_man)
        missing_readme = sorted(o for o in options if o not in section)
        check(f"{name}: the command-line guide's Commands section names every option", not missing_readme, missing_readme)
        if command:
            check(f"{name}: the man page's synopsis has it", re.search(rf"^\.B vitscope {command}$", man, re.M), command)

    questions = re.findall(r"^(?:PAGE|ANSWER)\((\w+),", source("src/vit/analysis/question_list.inc"), re.M)
    check("question_list.inc lists the Questions", len(questions) >= 10, questions)
    check("the completion offers exactly the Questions after --question",
          complete("explain", "x.jpg", "--question") == set(questions), sorted(complete("explain", "x.jpg", "--question")))
    in_man = re.search(r"\(\s*--question\s+([\w,\s]+)\)", man)
    man_questions = re.findall(r"\w+", in_man.group(1)) if in_man else []
    check("the man page lists exactly the Questions, in their order", man_questions == questions,
          f"man: {man_questions}, list: {questions}")

    tasks = re.findall(r"^TASK\(\w+, (\w+),", source("src/vit/train/task_list.inc"), re.M)
    check("task_list.inc lists the tasks", len(tasks) >= 2, tasks)
    check("the completion offers exactly the tasks after --task",
          complete("train", "--task") == set(tasks), sorted(complete("train", "--task")))
    check("`vitscope train --help` names them", "--task " + "|".join(tasks) + " " in
          subprocess.run([BIN, "train", "--help"], capture_output=True, text=True, timeout=60).stdout)
    # Every "a|b" list in the man page that holds a task (its synopsis and the train entry).
    man_lists = [re.findall(r"\w+", m) for m in re.findall(r"\w+(?:\s*\|\s*\w+)+", man)]
    man_lists = [l for l in man_lists if set(l) & set(tasks)]
    check("the man page names the tasks wherever it lists them", len(man_lists) >= 2 and all(l == tasks for l in man_lists),
          f"man: {man_lists}, list: {tasks}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
