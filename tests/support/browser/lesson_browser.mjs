// Drives Debian's chromium (never a browser of puppeteer's own) over the
// DevTools protocol on a lesson page, with real mouse, keyboard and touch
// events, and prints what it saw as one JSON object for
// tests/web/lesson_page_browser_test.py to check:
//   node lesson_browser.mjs PAGE.html OUT_DIR
// With FIREFOX=/usr/bin/firefox-esr it drives Debian's Firefox instead
// (WebDriver BiDi), on the desktop only (no touch emulation there).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [page_path, outDir] = process.argv.slice(2);
const firefox = process.env.FIREFOX;
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "vitscope-browser-"));
const browser = firefox
  ? await puppeteer.launch({ browser: "firefox", executablePath: firefox, headless: true, userDataDir: profile })
  : await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      userDataDir: profile,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run"],
    });
const report = { browser: await browser.version(), requests: [], errors: [] };
const url = "file://" + path.resolve(page_path);

// What the page shows: its selection (the weights table's data), the fragment, the math panel's key.
async function selection(page) {
  return page.evaluate(() => {
    const t = document.getElementById("weights");
    const key = document.querySelector("#math .key");
    return { layer: t.dataset.layer, head: t.dataset.head, query: Number(t.dataset.query), hash: location.hash,
             key: key ? key.textContent : null, rows: t.tBodies[0].rows.length };
  });
}
// The centre of patch (row, col) on the photo, in CSS pixels of the viewport.
async function patchCentre(page, row, col) {
  return page.evaluate((row, col) => {
    const r = document.getElementById("photo").getBoundingClientRect();
    const grid = JSON.parse(document.getElementById("lesson-data").textContent).meta.grid;
    return { x: r.left + ((col + 0.5) / grid) * r.width, y: r.top + ((row + 0.5) / grid) * r.height };
  }, row, col);
}
async function open(page, fragment) {
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) report.requests.push(r.url()); });
  page.on("pageerror", (e) => report.errors.push(String(e.stack || e)));
  page.on("console", (m) => { if (m.type() === "error") report.errors.push(m.text()); });
  await page.goto(url + fragment, { waitUntil: "load" });
  await page.waitForFunction(() => window.lessonTimings && window.lessonTimings.firstMapMs !== null, { timeout: 20000 });
}

try {
  // Desktop, 1280 x 720: the ear at layer 3, head 2 from the fragment; then a real click elsewhere.
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720 });
  await open(page, "#layer=3&head=2&patch=5,3");
  report.firstMapMs = await page.evaluate(() => window.lessonTimings.firstMapMs);
  report.fromFragment = await selection(page);
  report.photoRect = await page.evaluate(() => {
    const r = document.getElementById("photo").getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width, height: r.height, viewport: window.innerWidth };
  });
  await page.screenshot({ path: path.join(outDir, "desktop_1280.png") });

  const target = await patchCentre(page, 9, 10);
  await page.mouse.click(target.x, target.y);
  report.afterClick = await selection(page);
  const key = await patchCentre(page, 2, 2);
  await page.mouse.move(key.x, key.y);
  report.afterHover = await selection(page);
  await page.keyboard.press("ArrowUp");
  report.afterArrowUp = await selection(page);
  await page.keyboard.press("PageDown");
  report.afterPageDown = await selection(page);
  await page.click("#thumbs figure:last-child");  // the mean of the heads
  report.afterMean = await selection(page);

  // New query: time from the click's dispatch to the page's whole redraw done, 20 patches (median and worst).
  // 20 different patches, each click one whole redraw (counted: a click that missed would not redraw).
  const times = [];
  const queries = new Set();
  const renders = await page.evaluate(() => window.lessonTimings.renderMs.length);
  for (let i = 0; i < 20; i++) {
    const p = await patchCentre(page, i % 14, (i * 5 + Math.floor(i / 14)) % 14);
    await page.mouse.click(p.x, p.y);
    times.push(await page.evaluate(() => window.lessonTimings.renderMs[window.lessonTimings.renderMs.length - 1]));
    queries.add((await selection(page)).query);
  }
  report.newQueryMs = times;
  report.newQueryClicks = { distinct: queries.size, renders: (await page.evaluate(() => window.lessonTimings.renderMs.length)) - renders };
  report.queryComputeMs = await page.evaluate(() => window.lessonTimings.queryMs.slice(-20));
  await page.click("#tour-next");  // the tour's second step: the dog's ear
  report.afterTourNext = await selection(page);
  report.tourStep = await page.evaluate(() => document.getElementById("tour-step-title").textContent);

  // 1920 x 1080 for the screenshot of the README.
  await page.setViewport({ width: 1920, height: 1080 });
  await page.goto("about:blank");  // a fresh load, scrolled to the top
  await page.goto(url + "#layer=3&head=2&patch=5,3", { waitUntil: "load" });
  await page.waitForFunction(() => window.lessonTimings && window.lessonTimings.firstMapMs !== null);
  const k = await patchCentre(page, 7, 3);
  await page.mouse.move(k.x, k.y);
  await page.screenshot({ path: path.join(outDir, "desktop_1920.png") });
  await page.close();
  if (!firefox) {  // the phone needs chromium's touch emulation
    // A phone: 390 x 844, touch. A tap picks the query; with "key" chosen a tap picks the key.
    const phone = await browser.newPage();
    await phone.emulate({ viewport: { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
                          userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile" });
    await open(phone, "#layer=3&head=2&patch=5,3");
    const tap = await patchCentre(phone, 8, 6);
    await phone.touchscreen.tap(tap.x, tap.y);
    report.phoneAfterTap = await selection(phone);
    await phone.tap("#tap-key");
    const tapKey = await patchCentre(phone, 4, 4);
    await phone.touchscreen.tap(tapKey.x, tapKey.y);
    report.phoneAfterKeyTap = await selection(phone);
    report.phoneOverflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await phone.screenshot({ path: path.join(outDir, "phone.png") });
    await phone.screenshot({ path: path.join(outDir, "phone_full.png"), fullPage: true });
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(report));
