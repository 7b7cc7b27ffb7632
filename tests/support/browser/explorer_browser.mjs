// Drives Debian's chromium (or, with FIREFOX set, Debian's Firefox) on the
// browser build of the explorer (build-wasm/vitscope-web, served by
// scripts/serve_web.sh), with real time and real mouse clicks on the canvas,
// and prints what it saw as one JSON object for tests/web/explorer_browser_test.py:
//   node explorer_browser.mjs URL OUT_DIR SPEC.json
// SPEC: {"files": {"/module/path": "local file"}, "args": "explorer arguments", "click": [row, col],
//        "hostile": "local file", "downloads": the number of files the script's exports offer,
//        "refused": true where the page is to refuse to start (only its notice and errors read),
//        "query": more of the page's address ("mirror=..."), "model": the end of the model's path to wait for,
//        "settings": {field: value} the script sets: settings kept (no --no-settings), the page opened a second
//        time without the script once the state shows them}.
// Files go into the module's file system before it starts (the page's window.vitscopeTestFiles);
// the explorer runs with --state-file /home/web_user/test/state.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [url, outDir, specPath] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));
const firefox = process.env.FIREFOX;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "vitscope-explorer-"));
const browser = firefox
  // In a window on the DISPLAY given (Xvfb): headless, Firefox has no WebGL without a GPU.
  ? await puppeteer.launch({ browser: "firefox", executablePath: firefox, headless: !process.env.DISPLAY,
                             userDataDir: profile, defaultViewport: null, args: ["--width=1280", "--height=800"] })
  : await puppeteer.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      headless: true,
      userDataDir: profile,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
    });
const STATE = "/home/web_user/test/state.json";
class Done extends Error {}
const report = { browser: await browser.version(), errors: [], console: [] };

const readState = (page) => page.evaluate((p) => {
  try { return JSON.parse(new TextDecoder().decode(Module.vitscopeReadFile(p))); } catch (e) { return null; }
}, STATE);
async function waitState(page, test, what, timeout = 240000) {
  const until = Date.now() + timeout;
  for (;;) {
    const s = await readState(page);
    if (s && test(s)) return s;
    if (Date.now() > until) throw new Error("timed out waiting for " + what + ": " + JSON.stringify(s).slice(0, 400));
    await new Promise((r) => setTimeout(r, 250));
  }
}
const readModuleFile = (page, p) => page.evaluate((p) => {
  const bytes = Module.vitscopeReadFile(p);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}, p);

try {
  const page = await browser.newPage();
  if (!firefox) await page.setViewport({ width: 1280, height: 720 });
  page.on("pageerror", (e) => report.errors.push(String(e.stack || e)));
  page.on("console", (m) => {
    report.console.push(m.type() + ": " + m.text());
    if (m.type() === "error") report.errors.push(m.text());
  });
  const files = Object.entries(spec.files || {}).map(([p, local]) => ({ path: p, base64: fs.readFileSync(local).toString("base64") }));
  await page.evaluateOnNewDocument((files) => { window.vitscopeTestFiles = files; }, files);
  const args = ["--state-file", STATE, ...(spec.settings ? [] : ["--no-settings"]),
                ...(spec.args || "").split(" ").filter(Boolean)];
  const started = Date.now();
  await page.goto(url + "?args=" + encodeURIComponent(args.join(" ")) + (spec.query ? "&" + spec.query : ""),
                  { waitUntil: "load" });
  const notice = () => page.evaluate(() => document.getElementById("notice").textContent);
  await new Promise((r) => setTimeout(r, 1000));
  report.notice = await notice();
  report.isolated = await page.evaluate(() => self.crossOriginIsolated === true);
  if (spec.refused) throw new Done();  // a page that is to refuse to start: its notice is all there is
  await waitState(page, (s) => s.ready, "the first map");
  report.firstMapMs = Date.now() - started;
  if (spec.settings) {  // what the script set, saved as it changed; then the page's second visit
    const set = (s) => Object.entries(spec.settings).every(([k, v]) => JSON.stringify(k.split(".").reduce((o, p) => o && o[p], s)) === JSON.stringify(v));
    report.firstVisit = await waitState(page, (s) => s.ready && set(s), "the script's settings");
    await new Promise((r) => setTimeout(r, 1500));  // IndexedDB written
    await page.goto(url + "?args=" + encodeURIComponent(`--state-file ${STATE}`), { waitUntil: "load" });
    report.secondVisit = await waitState(page, (s) => s.ready, "the second visit's first map");
    throw new Done();
  }
  if (spec.model) {  // a model the script gets (File > Get a model…): open, or its error
    report.afterModel = await waitState(page, (s) => (s.model.endsWith(spec.model) && s.ready) || s.download.error,
                                        "the model " + spec.model);
    throw new Done();
  }
  // The script's exports, once offered for download; then the state it left.
  const until = Date.now() + 240000;
  while ((await page.evaluate(() => window.vitscopeDownloads.length)) < (spec.downloads || 0) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 250));
  await new Promise((r) => setTimeout(r, 1000));
  const ready = await waitState(page, (s) => s.ready, "the script's end");
  report.start = await page.evaluate(() => window.vitscopeStart);

  report.stateAfterScript = ready;

  // The trace on show, as `vitscope dump` writes it.
  const rc = await page.evaluate(() => Module.ccall("vitscope_dump_trace", "number", ["string"], ["/home/web_user/test/dump"]));
  report.dumpRc = rc;
  fs.mkdirSync(path.join(outDir, "dump"), { recursive: true });
  for (const name of await page.evaluate(() => Module.vitscopeListFolder("/home/web_user/test/dump")))
    fs.writeFileSync(path.join(outDir, "dump", name), Buffer.from(await readModuleFile(page, "/home/web_user/test/dump/" + name), "base64"));
  // What the script exported, as the page offered it for download.
  report.downloads = await page.evaluate(() => window.vitscopeDownloads);
  for (const p of report.downloads)
    fs.writeFileSync(path.join(outDir, path.basename(p)), Buffer.from(await readModuleFile(page, p), "base64"));

  // A real click on a patch: its centre where the state file says the photo is drawn.
  if (spec.click) {
    const [row, col] = spec.click;
    const s = ready;
    const [vx, vy, vw, vh] = s.image_view, [cx, cy, cw, ch] = s.crop, [pw, ph] = s.photo_size;
    const canvasBox = await page.evaluate(() => { const r = document.getElementById("canvas").getBoundingClientRect(); return [r.left, r.top]; });
    const x = canvasBox[0] + vx + ((cx + ((col + 0.5) * cw) / s.grid) * vw) / pw;
    const y = canvasBox[1] + vy + ((cy + ((row + 0.5) * ch) / s.grid) * vh) / ph;
    await page.mouse.move(x, y);
    await page.mouse.click(x, y);
    await waitState(page, (t) => t.row === row && t.col === col && t.ready, "the clicked query");
    await page.mouse.move(2, 700);  // no hover highlight over the map
    await new Promise((r) => setTimeout(r, 1500));
    report.afterClick = await readState(page);
    await page.screenshot({ path: path.join(outDir, "after_click.png"), clip: { x: canvasBox[0], y: canvasBox[1], width: 1280, height: 720 - canvasBox[1] } });
  }

  // A hostile photo: one line of error, the photo before it still on show.
  if (spec.hostile) {
    const before = await readState(page);
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      Module.vitscopeWriteFile("/home/web_user/test/hostile.jpg", bytes);
      Module.ccall("vitscope_open_path", null, ["string"], ["/home/web_user/test/hostile.jpg"]);
    }, fs.readFileSync(spec.hostile).toString("base64"));
    report.afterHostile = await waitState(page, (t) => t.last_error && !t.busy, "the hostile photo's error", 60000);
    report.imageBefore = before.image;
  }
  // A malformed model (its folder picked as the page's Open model… puts it): one line, the model and photo kept.
  if (spec.hostileModel) {
    const before = await readState(page);
    await page.evaluate((files) => {
      for (const [name, b64] of Object.entries(files))
        Module.vitscopeWriteFile("/home/web_user/test/bad-model/" + name, Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
      Module.ccall("vitscope_open_path", null, ["string"], ["/home/web_user/test/bad-model"]);
    }, Object.fromEntries(Object.entries(spec.hostileModel).map(([n, f]) => [n, fs.readFileSync(f).toString("base64")])));
    report.afterHostileModel = await waitState(page, (t) => t.last_error && t.last_error !== before.last_error && !t.busy,
                                               "the malformed model's error", 60000);
    report.modelBefore = before.model;
    report.imageBeforeModel = before.image;
  }
} catch (e) {
  if (!(e instanceof Done)) report.errors.push("driver: " + String(e.stack || e));
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(report) + "\n");
