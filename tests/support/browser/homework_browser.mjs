// Answers a lesson page's homework (vitscope lesson --exercises) through real
// input: mouse clicks on the exercise's photo, the CLS button, typing,
// radio buttons, Check, and "Download my answers"; prints what the page
// showed as one JSON object for tests/web/lesson_page_browser_test.py:
//   node homework_browser.mjs PAGE.html OUT_DIR PLAN.json
// PLAN: {"passes": {"right": [ACTION...], "wrong": [...]}}, each action
// {n, type: click|prefix|type|mark|radio, row, col, token, text, patches, option, first}
// ("first": text typed and checked before `text`, the bad input a note answers).
// Each pass is a fresh page. With FIREFOX=/usr/bin/firefox-esr it drives
// Debian's Firefox (the CSV then read from the download link's Blob).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [pagePath, outDir, planPath] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planPath, "utf8"));
const firefox = process.env.FIREFOX;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "vitscope-homework-"));
const browser = firefox
  ? await puppeteer.launch({ browser: "firefox", executablePath: firefox, headless: true, userDataDir: profile })
  : await puppeteer.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      headless: true,
      userDataDir: profile,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run"],
    });
const report = { browser: await browser.version(), requests: [], errors: [], passes: {} };
const url = "file://" + path.resolve(pagePath);

async function open(page) {
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) report.requests.push(r.url()); });
  page.on("pageerror", (e) => report.errors.push(String(e.stack || e)));
  page.on("console", (m) => { if (m.type() === "error") report.errors.push(m.text()); });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => window.lessonTimings && window.lessonTimings.firstMapMs !== null, { timeout: 20000 });
}

// The centre of patch (row, col) on exercise n's photo, in the viewport (scrolled into view first).
async function patchOn(page, n, row, col) {
  const sel = `[data-exercise="${n}"] .ex-photo`;
  await page.$eval(sel, (c) => c.scrollIntoView({ block: "center" }));
  return page.$eval(sel, (c, row, col) => {
    const r = c.getBoundingClientRect();
    return { x: r.left + ((col + 0.5) / 14) * r.width, y: r.top + ((row + 0.5) / 14) * r.height };
  }, row, col);
}

async function exercise(page, n) {
  return page.$eval(`[data-exercise="${n}"]`, (d) => ({
    verdict: d.dataset.verdict || null, answer: d.dataset.answer ?? null, accepted: d.dataset.accepted ?? null,
    note: d.querySelector(".ex-note").hidden ? null : d.querySelector(".ex-note").textContent,
    text: d.querySelector(".ex-verdict").textContent, arithmetic: d.querySelectorAll(".arith tr").length,
    typed: d.querySelector(".ex-number") ? d.querySelector(".ex-number").value : null,
  }));
}

async function act(page, a) {
  const ex = `[data-exercise="${a.n}"]`;
  if (a.type === "click") {
    const p = await patchOn(page, a.n, a.row, a.col);
    await page.mouse.click(p.x, p.y);
  } else if (a.type === "prefix") {
    await page.click(`${ex} .ex-prefix[data-token="${a.token}"]`);
  } else if (a.type === "mark") {
    for (const [r, c] of a.patches) {
      const p = await patchOn(page, a.n, r, c);
      await page.mouse.click(p.x, p.y);
    }
  } else if (a.type === "radio") {
    await page.click(`${ex} input[type=radio][value="${a.option}"]`);
  } else if (a.type === "type") {
    if (a.first !== undefined) {
      await page.click(`${ex} .ex-number`);
      await page.keyboard.type(a.first);
      await page.click(`${ex} .ex-check`);
      a.afterFirst = await exercise(page, a.n);
      await page.click(`${ex} .ex-number`);
      await page.keyboard.press("End");
      for (let i = 0; i < a.first.length; i++) await page.keyboard.press("Backspace");
    }
    await page.click(`${ex} .ex-number`);
    await page.keyboard.type(a.text);
  }
  await page.click(`${ex} .ex-check`);
  return { ...(await exercise(page, a.n)), afterFirst: a.afterFirst };
}

// "Download my answers": a real download in Chromium; in Firefox the Blob the link holds.
async function download(page, dir) {
  if (!firefox) {
    const cdp = await page.createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dir });
  }
  await page.click("#download-answers");
  const name = await page.$eval("#answers-link", (a) => a.download);
  if (firefox) return { name, csv: await page.$eval("#answers-link", (a) => fetch(a.href).then((r) => r.text())) };
  const file = path.join(dir, name);
  for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  return { name, csv: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null };
}

try {
  for (const [pass, actions] of Object.entries(plan.passes)) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await open(page);
    await page.evaluate(() => localStorage.clear());  // each pass starts with no saved answers
    await page.reload({ waitUntil: "load" });
    await page.waitForFunction(() => window.lessonTimings && window.lessonTimings.firstMapMs !== null, { timeout: 20000 });
    const seen = {};
    for (const a of actions) seen[a.n] = await act(page, a);
    // After the last check the page shows that exercise's query and key in the math panel.
    const math = await page.$eval("#math", (m) => m.textContent);
    const dir = fs.mkdtempSync(path.join(outDir, `download_${pass}_`));
    report.passes[pass] = { exercises: seen, math, download: await download(page, dir),
                            elements: await page.$$eval("[data-exercise]", (ds) => ds.map((d) => Number(d.dataset.exercise))) };
    if (pass === "right") await (await page.$("#homework")).screenshot({ path: path.join(outDir, "homework_desktop.png") });
    // A reload keeps what was checked: the same verdicts, the inputs locked.
    await page.reload({ waitUntil: "load" });
    await page.waitForFunction(() => window.lessonTimings && window.lessonTimings.firstMapMs !== null, { timeout: 20000 });
    report.passes[pass].afterReload = await page.$$eval("[data-exercise]", (ds) => ds.map((d) => ({
      verdict: d.dataset.verdict || null, answer: d.dataset.answer ?? null, locked: d.querySelector(".ex-check").disabled })));
    await page.close();
  }
  if (!firefox) {  // a phone: taps on the exercise's photo, nothing wider than the screen
    const phone = await browser.newPage();
    await phone.emulate({ viewport: { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
                          userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile" });
    await open(phone);
    await phone.evaluate(() => localStorage.clear());  // the passes' answers were kept: start again
    await phone.reload({ waitUntil: "load" });
    await phone.waitForFunction(() => window.lessonTimings && window.lessonTimings.firstMapMs !== null, { timeout: 20000 });
    const first = plan.passes.right.find((a) => a.type === "click");
    if (first) {
      const p = await patchOn(phone, first.n, first.row, first.col);
      await phone.touchscreen.tap(p.x, p.y);
      await phone.tap(`[data-exercise="${first.n}"] .ex-check`);
      report.phone = await exercise(phone, first.n);
    }
    report.phoneOverflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await (await phone.$("#homework")).screenshot({ path: path.join(outDir, "homework_phone.png") });
    await phone.close();
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(report));
