"""What the browser tests share: Debian's browsers, and the puppeteer-core
drivers in tests/support/browser/ (installed by `npm ci` as its
package-lock.json pins them)."""
import fcntl
import os
import subprocess

from script_support import NO_DISPLAY, SRC

BROWSER_DIR = os.path.join(SRC, "tests", "support", "browser")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")


def driver(name):
    """The path of a driver script (deck_browser.mjs, ...)."""
    return os.path.join(BROWSER_DIR, name)


def install_puppeteer(check):
    """puppeteer-core installed once, again only when the lock changes. Tests running side by side (ctest -j)
    wait for each other's install rather than both writing node_modules. Reports a failed install through check."""
    stamp = os.path.join(BROWSER_DIR, "node_modules", ".package-lock.json")
    lock = os.path.join(BROWSER_DIR, "package-lock.json")
    with open(os.path.join(BROWSER_DIR, ".install.lock"), "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(lock):
            return True
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=BROWSER_DIR,
                           env=dict(NO_DISPLAY, PUPPETEER_SKIP_DOWNLOAD="1"), capture_output=True, text=True, timeout=600)
        return check("npm ci in tests/support/browser (puppeteer-core)", r.returncode == 0, r.stderr[-500:])
