#!/usr/bin/env python3
"""The explorer's browser build (build-wasm/vitscope-web; docs/browser.md) in
Debian's Chromium and Firefox, headless, served by scripts/serve_web.sh with
and without the COOP/COEP headers threads need.

On a patchwork photo (tests/support/drawn_colours.py: one colour a patch; the
dog's JPEG in one session) with a script (query 5,3, layer 6, head 1, an exported figure, then the map opaque):
 - the page loads with no script or console error (Firefox in a window on
   Xvfb: headless it has no WebGL without a GPU);
 - the trace on show, read back through the page's test hook
   (vitscope_dump_trace: the arrays `vitscope dump` writes) equals the native
   `vitscope dump` of the same photo within the tolerance BENCHMARKS.md states
   between the native instruction sets (the browser's SIMD128 has no fused
   multiply-add: each product is rounded once more);
 - served without the headers the page runs the single-thread build
   (vitscope-single.js: background jobs in turns, session::JobThread) and says
   so once, with the same numbers, figure, click and errors as with threads; a
   folder without that build says in one line what the server must send;
 - the exported figure, downloaded, equals the native `vitscope export` of the
   same map within 2/255 per channel on 99.9 % of its pixels (WebGL 2 against
   Mesa: the same shaders, another rasteriser);
 - a real click on patch (9, 10) makes it the query, and every cell centre of
   the map drawn on the canvas is the colormap of that row of attention
   (native `vitscope dump`) within 3/255, the query's 3 x 3 left out and the
   first row, under the crop's name;
 - a hostile photo is one line of error in the page and the photo before it
   stays on show; a malformed model (a safetensors header cut short) likewise,
   the model and photo before it kept;
 - settings kept: a theme and a style set by a script are there on the page's
   second visit (IndexedDB, written as they change);
 - File > Get a model… (script `get-model`, the page's ?mirror=) fetches a
   model's files from a mirror on the same server, with threads (in the
   download's worker) and without (on the page's thread), and opens it.
Without the web build (scripts/setup_web.sh; CI builds it) the test is
skipped (exit 77). The first-map times are printed, never asserted.
"""
import atexit
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from browser_support import CHROMIUM, FIREFOX, driver, install_puppeteer  # noqa: E402
from drawn_colours import GRID, VIRIDIS, colormap, patchwork, sample, worst  # noqa: E402
from script_support import BIN, MIRROR, MODEL, NO_DISPLAY, SRC, Tally  # noqa: E402
from window_support import Xvfb  # noqa: E402

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_explorer_browser_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
WEB = os.environ.get("VITSCOPE_WEB_DIR", os.path.join(SRC, "build-wasm", "vitscope-web"))
LAYER, HEAD, ROW, COL = 6, 1, 5, 3
CLICK = (9, 10)
GOT_MODEL, GOT_FOLDER = "google/vit-base-patch16-224", "vit-base-patch16-224"  # assets/models.json
# Between the browser's SIMD128 kernels and the desktop's AVX2/AVX-512 ones (BENCHMARKS.md).
ATOL = {"attn": 2e-5, "logits": 2e-3}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(isolated, folder=WEB):
    port = free_port()
    args = [os.path.join(SRC, "scripts", "serve_web.sh"), "--port", str(port), folder] + ([] if isolated else ["--no-isolation"])
    server = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    atexit.register(server.kill)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return f"http://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("serve_web.sh did not start: " + server.stderr.read().decode()[-300:])


def native_dump(photo):
    out = os.path.join(TMP, "native_dump_" + os.path.basename(photo))
    if not os.path.isdir(out):
        subprocess.run([BIN, "dump", photo, "-o", out, "--model", MODEL], check=True, capture_output=True,
                       env=NO_DISPLAY, timeout=600)
    return out


def run_browser(url, out, spec, firefox=False):
    os.makedirs(out, exist_ok=True)
    spec_path = os.path.join(out, "spec.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    env = dict(NO_DISPLAY, CHROMIUM=CHROMIUM)
    if firefox:  # headless Firefox offers no WebGL on a machine without a GPU: a window on Xvfb (Mesa's llvmpipe)
        xvfb = Xvfb(1400, 900)
        atexit.register(xvfb.close)
        env = dict(xvfb.env(), FIREFOX=FIREFOX)
    r = subprocess.run(["node", driver("explorer_browser.mjs"), url, out, spec_path], env=env, capture_output=True,
                       text=True, timeout=1200)
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"errors": ["driver output: " + r.stdout[-500:] + r.stderr[-1500:]]}


def compare_trace(label, page_dump, native):
    for name, atol in ATOL.items():
        path = os.path.join(page_dump, name + ".npy")
        if not check(f"{label}: the page's dump has {name}.npy", os.path.exists(path)):
            continue
        got, want = np.load(path).astype(np.float64), np.load(os.path.join(native, name + ".npy")).astype(np.float64)
        same = got.shape == want.shape
        err = float(np.max(np.abs(got - want))) if same else float("inf")
        check(f"{label}: {name} {got.shape} equals the native dump within {atol:g} (max difference {err:.2e})",
              same and err <= atol)


def check_map(label, shot, state, native):
    attn = np.load(os.path.join(native, "attn.npy")).astype(np.float64)
    prefix = attn.shape[-1] - GRID * GRID
    q = prefix + CLICK[0] * GRID + CLICK[1]
    row = attn[LAYER, HEAD, q, prefix:].reshape(GRID, GRID)
    expected = np.rint(colormap(VIRIDIS, row / row.max()) * 255)
    pw, ph = state["photo_size"]
    cx, cy, cw, ch = state["crop"]
    x, y, w, h = state["image_view"]
    sx, sy = w / pw, h / ph
    pixels = np.asarray(Image.open(shot).convert("RGB")).astype(np.float64)
    drawn = sample(pixels, x + cx * sx, y + cy * sy, cw * sx / GRID, ch * sy / GRID)
    if drawn is None:
        check(f"{label}: the map's cells are inside the screenshot", False)
        return
    drawn[0] = expected[0]  # the crop's name is drawn over its first row where the photo has no room above it
    err, at = worst(drawn, expected, skip=CLICK)
    check(f"{label}: every cell of the clicked query's map (rows 1 to 13) is its weight's colour within 3/255 "
          f"(worst {err:.0f} at {at})", err <= 3)


def threads_only_folder():
    """The build's folder without its single-thread program, as a folder built by the wasm preset alone."""
    folder = os.path.join(TMP, "threads_only")
    os.makedirs(folder)
    for name in os.listdir(WEB):
        if not name.startswith("vitscope-single.") and name != "builds.json":
            os.symlink(os.path.join(WEB, name), os.path.join(folder, name))
    with open(os.path.join(folder, "builds.json"), "w") as f:
        json.dump({"programs": ["vitscope.js"]}, f)
    return folder


def mirror_folder():
    """The build's folder with a mirror of one known model beside it (mirror/FOLDER: the HF-layout ViT-Ti)."""
    folder = os.path.join(TMP, "with_mirror")
    os.makedirs(os.path.join(folder, "mirror"))
    for name in os.listdir(WEB):
        os.symlink(os.path.join(WEB, name), os.path.join(folder, name))
    os.symlink(os.path.join(MIRROR, os.path.basename(MODEL) + "-hf"), os.path.join(folder, "mirror", GOT_FOLDER))
    return folder


def get_model(label, url):
    spec = {"files": {}, "args": f"--script /home/web_user/test/get.script", "query": "mirror=mirror",
            "model": "/" + GOT_FOLDER}
    script = os.path.join(TMP, "get.script")
    with open(script, "w") as f:
        f.write(f"wait\nget-model {GOT_MODEL}\nwait\n")
    spec["files"]["/home/web_user/test/get.script"] = script
    report = run_browser(url, os.path.join(TMP, label.replace(" ", "_")), spec)
    state = report.get("afterModel") or {}
    check(f"{label}: Get a model… fetched {GOT_MODEL} from the mirror and opened it "
          f"(model {state.get('model', '')[-40:]!r}, error {(state.get('download') or {}).get('error', '')!r}, "
          f"{report.get('errors', [])[:2]})", state.get("model", "").endswith("/" + GOT_FOLDER) and state.get("ready")
          and not state.get("last_error") and not report.get("errors"))


def settings_kept(label, url):
    script = os.path.join(TMP, "settings.script")
    with open(script, "w") as f:
        f.write("wait\ntheme light\nstyle colormap=magma\nframes 3\n")
    spec = {"files": {"/home/web_user/test/settings.script": script},
            "settings": {"theme": "light", "style.colormap": "magma"},
            "args": "--script /home/web_user/test/settings.script"}
    report = run_browser(url, os.path.join(TMP, label.replace(" ", "_")), spec)
    first, second = report.get("firstVisit") or {}, report.get("secondVisit") or {}
    check(f"{label}: the theme and colormap a script set are there on the second visit "
          f"({first.get('theme')}/{(first.get('style') or {}).get('colormap')} -> "
          f"{second.get('theme')}/{(second.get('style') or {}).get('colormap')}; {report.get('errors', [])[:2]})",
          second.get("theme") == "light" and (second.get("style") or {}).get("colormap") == "magma"
          and not report.get("errors"))


def session(label, url, photo, native, firefox=False, full=True):
    script = os.path.join(TMP, "run.script")
    figure = "/home/web_user/test/figure.png"
    with open(script, "w") as f:
        f.write(f"wait\nselect {ROW},{COL}\nlayer {LAYER}\nhead {HEAD}\nframes 3\n"
                + (f"export {figure}\nframes 3\n" if full else "") + "style opacity=1 fade=off grid=off\nframes 3\n")
    hostile = os.path.join(TMP, "hostile.jpg")
    with open(hostile, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0" + b"\x00" * 64)  # a JPEG that ends at its first marker
    bad_weights = os.path.join(TMP, "model.safetensors")
    with open(os.path.join(MODEL, "model.safetensors"), "rb") as f, open(bad_weights, "wb") as out:
        out.write(f.read(4096))  # the header says more bytes than the file has
    shown = "/home/web_user/test/" + os.path.basename(photo)
    spec = {"files": {shown: photo, "/home/web_user/test/run.script": script},
            "args": "--script /home/web_user/test/run.script " + shown,
            "click": list(CLICK) if full else None, "hostile": hostile if full else None, "downloads": 1 if full else 0,
            "hostileModel": {"config.json": os.path.join(MODEL, "config.json"), "model.safetensors": bad_weights}
            if full else None}
    out = os.path.join(TMP, label.replace(" ", "_"))
    report = run_browser(url, out, spec, firefox)
    check(f"{label}: no script or console error ({report.get('errors', [])[:3]})", not report.get("errors"))
    if report.get("errors"):
        print("\n".join(report.get("console", [])[-20:]))
        return report
    print(f"{label}: {report.get('browser')}: first map {report.get('firstMapMs')} ms "
          f"(model cached: {report.get('start', {}).get('modelCached')})")
    compare_trace(label, os.path.join(out, "dump"), native)
    if not full:
        return report
    native_figure = os.path.join(TMP, "native_figure.png")
    if not os.path.exists(native_figure):
        subprocess.run([BIN, "export", photo, "-o", native_figure, "--model", MODEL, "--layer", str(LAYER), "--head",
                        str(HEAD), "--patch", f"{ROW},{COL}"], check=True, capture_output=True, env=NO_DISPLAY,
                       timeout=600)
    downloaded = os.path.join(out, "figure.png")
    if check(f"{label}: the exported figure was offered as a download", os.path.exists(downloaded)):
        a = np.asarray(Image.open(downloaded).convert("RGB")).astype(int)
        b = np.asarray(Image.open(native_figure).convert("RGB")).astype(int)
        same = a.shape == b.shape
        close = float(np.mean(np.abs(a - b).max(axis=2) <= 2)) if same else 0.0
        check(f"{label}: the downloaded figure {a.shape} equals the native export {b.shape} within 2/255 on "
              f"{close:.2%} of its pixels (at least 99.9 %)", same and close >= 0.999)
    state = report.get("afterClick") or {}
    check(f"{label}: a click on patch {CLICK} makes it the query", (state.get("row"), state.get("col")) == CLICK)
    if os.path.exists(os.path.join(out, "after_click.png")):
        check_map(label, os.path.join(out, "after_click.png"), state, native)
    hostile_state = report.get("afterHostile") or {}
    error = hostile_state.get("last_error", "")
    check(f"{label}: a hostile photo is one line of error ({error[:100]!r})", bool(error) and "\n" not in error)
    check(f"{label}: the photo before it stays on show", hostile_state.get("image") == report.get("imageBefore"))
    model_state = report.get("afterHostileModel") or {}
    error = model_state.get("last_error", "")
    check(f"{label}: a malformed model is one line of error ({error[:100]!r})", bool(error) and "\n" not in error)
    check(f"{label}: the model and photo before it stay", model_state.get("model") == report.get("modelBefore")
          and model_state.get("image") == report.get("imageBeforeModel") and model_state.get("ready"))
    return report


def main():
    if not os.path.exists(os.path.join(WEB, "index.html")):
        print(f"skipped: no browser build at {WEB} (scripts/setup_web.sh builds it)")
        sys.exit(77)
    if not install_puppeteer(check):
        return tally.finish()
    photo = os.path.join(TMP, "patchwork.png")
    patchwork(photo, 3)
    native = native_dump(photo)
    isolated = serve(True)
    report = session("chromium isolated", isolated, photo, native)
    check("isolated, the page runs the threaded build", (report.get("start") or {}).get("threads") is True)
    # Served without the headers: the single-thread build, said once in the page's notice.
    plain = serve(False)
    report = session("chromium one thread", plain, photo, native)
    notice = report.get("notice", "")
    check(f"without COOP/COEP the page runs one thread and says so ({notice[:90]!r})",
          (report.get("start") or {}).get("threads") is False and report.get("isolated") is not True
          and "one thread" in notice and "COOP/COEP" in notice)
    # A folder with the threaded build alone: the page names the headers it needs, and nothing else fails.
    report = run_browser(serve(False, threads_only_folder()), os.path.join(TMP, "refused"),
                         {"files": {}, "args": "", "refused": True})
    check(f"without COOP/COEP or a single-thread build the page names the headers it needs "
          f"({report.get('notice', '')[:90]!r}), no script error ({report.get('errors', [])[:2]})",
          "COOP/COEP" in report.get("notice", "") and "scripts/serve_web.sh" in report.get("notice", "")
          and not report.get("errors"))
    session("firefox isolated", isolated, photo, native, firefox=True, full=False)
    # A JPEG photo (libjpeg-turbo built from Debian's source for the browser) decodes as on the desktop.
    dog = os.path.join(SRC, "assets", "dog.jpg")
    session("firefox one thread", plain, dog, native_dump(dog), firefox=True, full=False)
    settings_kept("chromium settings kept", isolated)
    with_mirror = mirror_folder()
    get_model("chromium get a model with threads", serve(True, with_mirror))
    get_model("chromium get a model on one thread", serve(False, with_mirror))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
