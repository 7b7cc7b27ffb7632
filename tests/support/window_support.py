"""Helpers for window_test.py: a private Xvfb display, the vitscope window as
a child process, its state file, and real X input through xdotool."""
import glob
import json
import os
import subprocess
import tempfile
import time

# How long a window test waits for the state it needs before it fails. Generous, because waiting costs
# nothing once the state comes: on a 2-core machine at load 12-18 a frame can take seconds and a model
# run a minute (issue 44). A wait that needs longer (a page's study of hundreds of forward passes) says so.
DEADLINE = 120


def cpu_wait(pids):
    """Seconds the busiest-waiting thread of each process has spent runnable but without a CPU
    (/proc/PID/task/*/schedstat, second field), summed over the processes: how far the machine's load
    held them back. 0 for a process that is gone."""
    total = 0
    for pid in pids:
        waits = [0]
        for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
            try:
                with open(path) as f:
                    waits.append(int(f.read().split()[1]))
            except (OSError, ValueError, IndexError):
                pass  # a thread that ended meanwhile
        total += max(waits)
    return total / 1e9


class Xvfb:
    """An X server of its own (so tests run in CI and beside a desktop)."""

    def __init__(self, width=1920, height=1080):
        read_fd, write_fd = os.pipe()
        self.proc = subprocess.Popen(
            # -noreset: without it the server resets when its last client leaves, and the pointer
            # park_pointer() moved before a window opened went back to the middle of the screen.
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp",
             "-noreset"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        with os.fdopen(read_fd) as f:
            number = f.readline().strip()  # Xvfb writes the display number once it accepts clients
        if not number:
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + number

    def env(self):
        env = dict(os.environ, DISPLAY=self.display)
        env.pop("WAYLAND_DISPLAY", None)
        return env

    def park_pointer(self):
        """Moves the pointer to the bottom-right corner (the status bar), off every map."""
        subprocess.run(["xdotool", "mousemove", "10000", "10000"], env=self.env(), check=True, timeout=30)

    def let_go_of_modifiers(self):
        """Releases the modifier keys at the display: a test that failed between a key's press and its
        release must not leave it held for the next test's window (which would see Ctrl on every key)."""
        subprocess.run(["xdotool", "keyup", "ctrl", "shift", "alt", "super"], env=self.env(), check=True,
                       capture_output=True, timeout=30)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def brief(state, limit=3000):
    """A state for a failure message: its JSON on one line, cut to `limit` characters."""
    text = json.dumps(state)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def read_state(path):
    """The window's state file, or None while it is not there yet."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


class Window:
    """vitscope's window as a child process with a state file in a temp folder."""

    def __init__(self, xvfb, binary, args, cwd, size="1920x1080", env=None, settings=False):
        """settings: read and write the settings file (XDG_CONFIG_HOME in env) instead of --no-settings."""
        self.xvfb = xvfb
        self.cwd = cwd
        self.state_file = os.path.join(cwd, "state.json")
        self.log = tempfile.TemporaryFile(dir=cwd)
        cmd = [binary, *args, *([] if settings else ["--no-settings"]), "--window-size", size,
               "--state-file", self.state_file]
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=dict(xvfb.env(), **(env or {})), stdout=self.log,
                                     stderr=subprocess.STDOUT)

    def wait_for(self, predicate, timeout=DEADLINE, what="the window"):
        """Polls the state file until predicate(state) holds; returns that state. Fails, saying what it
        waited for, for how long and the last state seen, if vitscope exits or `timeout` seconds pass."""
        start = time.time()
        state = None
        while time.time() < start + timeout:
            state = read_state(self.state_file)
            if state is not None and predicate(state):
                return state
            if self.proc.poll() is not None:
                raise AssertionError(f"vitscope exited ({self.proc.returncode}) while waiting for {what}: {self.output()}")
            time.sleep(0.1)
        raise AssertionError(f"waited {time.time() - start:.0f} s for {what} in vain; last state seen: {brief(state)}")

    def pause(self, seconds):
        """Lets `seconds` of the window's own time pass: wall time, plus whatever the window and its X server
        spent waiting for a CPU meanwhile (a loaded machine stretches the pause instead of cutting the frames
        the window draws in it). For what must NOT happen (nothing written later), and for a pointer to rest
        on a place for a frame; what must happen is waited for with wait_for."""
        pids = [self.proc.pid, self.xvfb.proc.pid]
        start, held = time.time(), cpu_wait(pids)
        while time.time() < start + seconds + (cpu_wait(pids) - held):
            time.sleep(0.05)

    def wait_still(self, key, seconds=0.5, timeout=DEADLINE):
        """Polls until state[key] has not changed for `seconds` of the window's own time (see pause: the
        window may be waiting for a CPU, not done); returns that state. For a page laid out again after a
        click, which reports its new places a frame or more later."""
        pids = [self.proc.pid, self.xvfb.proc.pid]
        start = time.time()
        state = read_state(self.state_file)
        since, held = time.time(), cpu_wait(pids)
        while time.time() < start + timeout:
            time.sleep(0.1)
            now = read_state(self.state_file)
            if now is None:
                continue
            if state is None or now.get(key) != state.get(key):
                state, since, held = now, time.time(), cpu_wait(pids)
            elif time.time() - since >= seconds + (cpu_wait(pids) - held):
                return now
        raise AssertionError(f"waited {timeout:.0f} s for {key} to hold still in vain; last state seen: {brief(state)}")

    def states_until_exit(self, timeout=600):
        """Every distinct state the window writes until it exits (a script ending in quit), in order,
        the last one included; (exit code, states)."""
        seen = []
        deadline = time.time() + timeout
        while time.time() < deadline and self.proc.poll() is None:
            state = read_state(self.state_file)
            if state is not None and (not seen or state != seen[-1]):
                seen.append(state)
            time.sleep(0.02)
        if self.proc.poll() is None:
            last = seen[-1] if seen else None
            raise AssertionError(f"the script did not end in {timeout} s; last state seen: {brief(last)}")
        code = self.proc.wait()
        final = read_state(self.state_file)
        if final is not None and (not seen or final != seen[-1]):
            seen.append(final)
        return code, seen

    def xdotool(self, *args):
        r = subprocess.run(["xdotool", *args], env=self.xvfb.env(), capture_output=True, text=True, timeout=DEADLINE)
        if r.returncode != 0:  # say why, and whether the window is still there
            alive = "running" if self.proc.poll() is None else f"exited with {self.proc.returncode}"
            raise AssertionError(f"xdotool {' '.join(args)}: exit {r.returncode} ({r.stderr.strip()[-300:]}); "
                                 f"vitscope {alive}; output: {self.output()[-600:]}")

    def window_id(self):
        """This process's window (GLFW sets _NET_WM_PID): on a display shared by several tests, a window an
        earlier test closed can still be listed for a moment, and a key sent there is lost."""
        if not getattr(self, "_window_id", None):
            out = subprocess.run(["xdotool", "search", "--sync", "--all", "--onlyvisible", "--pid", str(self.proc.pid),
                                  "--name", "^vitscope"],
                                 env=self.xvfb.env(), check=True, capture_output=True, text=True,
                                 timeout=DEADLINE).stdout
            self._window_id = out.split()[0]
        return self._window_id

    def click(self, x, y):
        """A real left click at window coordinates (x, y), as the state file reports places."""
        self.xdotool("mousemove", "--window", self.window_id(), str(int(round(x))), str(int(round(y))))
        self.pause(0.3)  # a frame with the pointer there first: the click lands on what it hovers
        self.xdotool("click", "1")

    def f12(self):
        """F12 at this window; the path of the screenshot it saves in its export folder (the working folder),
        once the file is there: written under a temporary name and renamed, it is whole when it shows."""
        before = set(glob.glob(os.path.join(self.cwd, "*.png")))
        self.xdotool("key", "--window", self.window_id(), "F12")
        self.wait_for(lambda s: set(glob.glob(os.path.join(self.cwd, "*.png"))) - before, what="F12's screenshot")
        return (set(glob.glob(os.path.join(self.cwd, "*.png"))) - before).pop()

    def press_ctrl_q(self):
        """Ctrl+Q, pressed at this window and let go at the display: the window can close at the Q's press,
        and a release sent to it then fails (xdotool exits 1), leaving Ctrl down for the next window."""
        self.xdotool("keydown", "--window", self.window_id(), "ctrl+q")
        subprocess.run(["xdotool", "keyup", "q", "ctrl"], env=self.xvfb.env(), check=True, capture_output=True,
                       timeout=30)

    def output(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def run_script(binary, args, script, tmp):
    """The window with `args`, running the script text `script` (ending in quit) on a private Xvfb:
    (exit code, every state it wrote, its output)."""
    path = os.path.join(tmp, "script.txt")
    with open(path, "w") as f:
        f.write(script)
    xvfb = Xvfb()
    try:
        w = Window(xvfb, binary, [*args, "--script", path], tmp)
        code, seen = w.states_until_exit()
        return code, seen, w.output()
    finally:
        xvfb.close()


def patch_centre(state, row, col):
    """Window coordinates of a patch's centre, from the state file's photo view and crop."""
    vx, vy, vw, vh = state["image_view"]
    pw, ph = state["photo_size"]
    cx, cy, cw, ch = state["crop"]
    g = state["grid"]
    x = vx + (cx + (col + 0.5) * cw / g) * vw / pw
    y = vy + (cy + (row + 0.5) * ch / g) * vh / ph
    return x, y


def patch_box(state, row, col, fraction=0.4):
    """The central `fraction` of a patch on the screen, as (x0, y0, x1, y1) pixels."""
    vx, vy, vw, vh = state["image_view"]
    pw, ph = state["photo_size"]
    cx, cy, cw, ch = state["crop"]
    g = state["grid"]
    sx, sy = vw / pw, vh / ph
    x0, y0 = vx + (cx + col * cw / g) * sx, vy + (cy + row * ch / g) * sy
    w, h = cw / g * sx, ch / g * sy
    m = (1 - fraction) / 2
    return (int(round(x0 + m * w)), int(round(y0 + m * h)), int(round(x0 + (1 - m) * w)), int(round(y0 + (1 - m) * h)))


def run_window_tests(tally, tests, prefix):
    """Runs each test(xvfb, tmp) in one private Xvfb, each in a fresh temporary
    folder, one PASS/FAIL line per test (a failure prints its traceback)."""
    import traceback
    xvfb = Xvfb()
    try:
        for t in tests:
            with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
                start = time.monotonic()
                try:
                    t(xvfb, tmp)
                    tally.check(f"{t.__name__} ({time.monotonic() - start:.0f} s)", True)
                except Exception:
                    tally.check(f"{t.__name__} ({time.monotonic() - start:.0f} s)", False)
                    traceback.print_exc()
                finally:
                    xvfb.let_go_of_modifiers()
    finally:
        xvfb.close()
    return tally.finish()


def overlap(a, b):
    """Area shared by two (x, y, w, h) rectangles."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)
