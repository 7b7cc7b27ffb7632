// Answers a lesson page's homework (vitscope lesson --exercises) through real
// input: mouse clicks on the exercise's photo, the CLS button, typing,
// radio buttons, Check, and "Download my answers"; prints what the page
// showed as one JSON object for tests/web/lesson_page_browser_test.py:
//   node homework_browser.mjs PAGE.html OUT_DIR PLAN.json
// PLAN: {"passes": {"right": [ACTION...], "wrong": [...]}, "students": {"right": NAME, ...},
//        "rows": [{n, layer, head (or "mean"), query, row, col, secrets: [TEXT...]}]}, each action
// {n, type: click|prefix|type|mark|options, row, col, token, text, patches, options, first}
// ("first": text typed and checked before `text`, the bad input a note answers).
// Before any Check each pass also opens every `rows` exercise's row, by a link and by real
// input (layer, head, a click on the query): what the page shows there is reported
// (the link's note, the weights listed, whether a secret's text is on the page); after
// the pass's checks the first row's link again.
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
  } else if (a.type === "options") {
    for (const o of a.options) await page.click(`${ex} .ex-options input[value="${o}"]`);
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

// What the page shows of exercise row r: after a link to it, or after real input selecting it.
async function shown(page, r) {
  return page.evaluate((secrets) => {
    const w = document.getElementById("weights");
    const note = document.getElementById("link-note");
    const text = document.body.innerText;
    return { weights: w.querySelectorAll("tr[data-weight]").length, hidden: w.dataset.hidden ?? null,
             layer: w.dataset.layer, head: w.dataset.head, query: w.dataset.query,
             note: note.hidden ? null : note.textContent, math: document.getElementById("math").textContent,
             secrets: secrets.filter((s) => text.includes(s)) };
  }, r.secrets || []);
}

async function openByLink(page, r) {
  const head = r.head === "mean" ? "mean" : r.head;
  await page.evaluate((h) => { location.hash = h; }, `#layer=${r.layer}&head=${head}&patch=${r.row},${r.col}`);
  await new Promise((res) => setTimeout(res, 300));
  return shown(page, r);
}

// The row chosen as a student would: the layer menu, the head (or mean) button, a click on the query's patch.
async function openByInput(page, r) {
  await page.select("#layer", String(r.layer));
  const heads = await page.$$("#heads button");
  await heads[r.head === "mean" ? heads.length - 1 : r.head].click();
  await page.$eval("#photo", (c) => c.scrollIntoView({ block: "center" }));
  const p = await page.$eval("#photo", (c, row, col) => {
    const b = c.getBoundingClientRect();
    return { x: b.left + ((col + 0.5) / 14) * b.width, y: b.top + ((row + 0.5) / 14) * b.height };
  }, r.row, r.col);
  await page.mouse.click(p.x, p.y);
  await page.mouse.move(0, 0);
  return shown(page, r);
}

// "Download my answers": a real download in Chromium; in Firefox the Blob the link holds.
async function download(page, dir, student) {
  await page.click("#download-answers");  // no name yet: refused with a note
  const refused = await page.$eval("#answers-note", (n) => n.textContent);
  await page.type("#student-name", student);
  if (!firefox) {
    const cdp = await page.createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dir });
  }
  await page.click("#download-answers");
  const name = await page.$eval("#answers-link", (a) => a.download);
  if (firefox) return { refused, name, csv: await page.$eval("#answers-link", (a) => fetch(a.href).then((r) => r.text())) };
  const file = path.join(dir, name);
  for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  return { refused, name, csv: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null };
}

try {
  for (const [pass, actions] of Object.entries(plan.passes)) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await open(page);
    await page.evaluate(() => localStorage.clear());  // each pass starts with no saved answers
    await page.reload({ waitUntil: "load" });
    await page.waitForFunction(() => window.lessonTimings && window.lessonTimings.firstMapMs !== null, { timeout: 20000 });
    const before = { link: {}, input: {} };
    for (const r of plan.rows || []) before.link[r.n] = await openByLink(page, r);
    for (const r of plan.rows || []) before.input[r.n] = await openByInput(page, r);
    const banner = await page.$eval("#homework-banner", (b) => ({ hidden: b.hidden, text: b.textContent, top: b.getBoundingClientRect().top + window.scrollY }));
    const seen = {};
    for (const a of actions) seen[a.n] = await act(page, a);
    const after = plan.rows && plan.rows.length ? await openByLink(page, plan.rows[0]) : null;
    // After the last check the page shows that exercise's query and key in the math panel.
    const math = await page.$eval("#math", (m) => m.textContent);
    const dir = fs.mkdtempSync(path.join(outDir, `download_${pass}_`));
    report.passes[pass] = { exercises: seen, math, before, after, banner, download: await download(page, dir, plan.students[pass]),
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
    // The homework announced on the phone's first screen (the section itself starts far below).
    report.phoneBanner = await phone.evaluate(() => {
      const b = document.getElementById("homework-banner");
      return { hidden: b.hidden, bottom: b.getBoundingClientRect().bottom + window.scrollY, screen: window.innerHeight };
    });
    await (await phone.$("#homework")).screenshot({ path: path.join(outDir, "homework_phone.png") });
    await phone.close();
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(report));
