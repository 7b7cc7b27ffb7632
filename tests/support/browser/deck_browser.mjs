// Drives Debian's chromium (never a browser of puppeteer's own) over the
// DevTools protocol on a tour's slide deck (vitscope tour -o DIR), with real
// key presses and mouse clicks, and prints what it saw as one JSON object for
// tests/app/gui/tour_slides_test.py to check:
//   node deck_browser.mjs DIR/index.html [SCREENSHOT_DIR]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [page_path, shots] = process.argv.slice(2);
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "vitscope-deck-"));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir: profile,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"],
});
const report = { requests: [], errors: [], steps: [] };

// What is on the screen: the slides whose box is visible, the one on show's picture and caption boxes.
async function seen(page, what) {
  const s = await page.evaluate(() => {
    const vis = [...document.querySelectorAll(".slide")]
      .map((el, i) => [i + 1, el.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0 && r.height > 0);
    const cur = document.querySelector(".slide.current");
    const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
    return {
      visible: vis.map(([i]) => i),
      hash: location.hash,
      img: cur ? box(cur.querySelector("img")) : null,
      imgLoaded: cur ? cur.querySelector("img").naturalWidth : 0,
      caption: cur ? box(cur.querySelector(".caption")) : null,
      key: cur && cur.querySelector(".key") ? cur.querySelector(".key").textContent : null,
      keyBox: cur && cur.querySelector(".key") ? box(cur.querySelector(".key")) : null,
      keyFontPx: cur && cur.querySelector(".key") ? parseFloat(getComputedStyle(cur.querySelector(".key")).fontSize) : 0,
      viewport: [innerWidth, innerHeight],
    };
  });
  report.steps.push({ what, ...s });
}

try {
  const page = await browser.newPage();
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) report.requests.push(r.url()); });
  page.on("pageerror", (e) => report.errors.push(String(e.stack || e)));
  page.on("console", (m) => { if (m.type() === "error") report.errors.push(m.text()); });
  await page.setViewport({ width: 1280, height: 720 });
  await page.goto("file://" + path.resolve(page_path), { waitUntil: "load" });
  await seen(page, "open");
  if (shots) await page.screenshot({ path: path.join(shots, "deck_1.png") });
  await page.keyboard.press("ArrowRight");
  await seen(page, "ArrowRight");
  await page.keyboard.press("ArrowRight");
  await seen(page, "ArrowRight");
  await page.keyboard.press("ArrowLeft");
  await seen(page, "ArrowLeft");
  // A click on the picture's right half: the next slide; on its left half: the one before.
  let img = report.steps.at(-1).img;
  await page.mouse.click(img[0] + img[2] * 0.8, img[1] + img[3] * 0.5);
  await seen(page, "click right");
  img = report.steps.at(-1).img;
  await page.mouse.click(img[0] + img[2] * 0.2, img[1] + img[3] * 0.5);
  await seen(page, "click left");
  await page.keyboard.press("End");
  await seen(page, "End");
  await page.keyboard.press("ArrowRight");
  await seen(page, "ArrowRight at the end");
  await page.click("#back");
  await seen(page, "Back button");
  await page.keyboard.press("Home");
  await seen(page, "Home");
  await page.goto("file://" + path.resolve(page_path) + "#7", { waitUntil: "load" });
  await seen(page, "#7");
  if (shots) await page.screenshot({ path: path.join(shots, "deck_7.png") });
  // Printed: every slide, one to a page.
  await page.emulateMediaType("print");
  await seen(page, "print");
  const pdf = await page.pdf({ landscape: true, format: "A4" });
  const counts = [...Buffer.from(pdf).toString("latin1").matchAll(/\/Count\s+(\d+)/g)].map((m) => Number(m[1]));
  report.pdfPages = counts.length ? Math.max(...counts) : 0;
} catch (e) {
  report.errors.push(String(e.stack || e));
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(report));
