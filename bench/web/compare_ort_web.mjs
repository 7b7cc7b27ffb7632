// The browser build's forward pass against ONNX Runtime Web, interleaved in
// one headless Chromium session (docs/benchmarks/browser-build.md):
//
//   node bench/web/compare_ort_web.mjs [--web build-wasm/vitscope-web] [--onnx /tmp/vitscope_peers]
//        [--sizes 224,448] [--rounds 5] [--runs 10] [--warmup 3] [--out results.json]
//
// Two conditions: "threads" (the page cross-origin isolated: vitscope.js on
// every core, ONNX Runtime Web with numThreads = navigator.hardwareConcurrency)
// and "one thread" (no COOP/COEP: vitscope-single.js, numThreads = 1). Per
// condition, one page runs the explorer on the default photo (assets/dog.jpg
// at start) and loads onnxruntime-web (bench/web/node_modules, wasm SIMD; the
// ONNX files of bench/peers/export_onnx.py: ti224.onnx, ti448.onnx, the same
// pretrained ViT-Ti/16). Per size, first the check that both compute the same
// thing: ONNX Runtime runs on the input vitscope preprocessed, and the logits
// must agree to 1e-4 of the largest. Then --rounds rounds, the two engines in
// turns (who goes first alternates), each --warmup untimed and --runs timed
// passes per round: vitscope's forward pass with its full trace
// (vitscope_start_timing, web_page_hooks.h: on a worker of its own, as the
// explorer runs it) and ONNX Runtime's session.run (on the page's thread, its default).
// Prints a table of medians over all timed passes, and writes every pass to --out.
// Also the open-to-first-map times of the threads page: cold (an empty
// browser profile: the 22 MB model fetched) and cached (the page reloaded).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, "../..");
const require = createRequire(path.join(root, "tests/support/browser/package.json"));
const puppeteer = require("puppeteer-core");

const { values: opt } = parseArgs({
  options: {
    web: { type: "string", default: path.join(root, "build-wasm/vitscope-web") },
    onnx: { type: "string", default: "/tmp/vitscope_peers" },
    sizes: { type: "string", default: "224,448" },
    rounds: { type: "string", default: "5" },
    runs: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    out: { type: "string", default: path.join(os.tmpdir(), "vitscope_ort_web.json") },
  },
});
const sizes = opt.sizes.split(",").map(Number), rounds = Number(opt.rounds), runs = Number(opt.runs);
const warmup = Number(opt.warmup);
const ortDist = path.join(here, "node_modules/onnxruntime-web/dist");
for (const need of [path.join(opt.web, "vitscope.js"), path.join(opt.web, "vitscope-single.js"), ortDist,
                    ...sizes.map((s) => path.join(opt.onnx, `ti${s}.onnx`))])
  if (!fs.existsSync(need)) {
    console.error(`compare_ort_web: ${need} is missing (docs/benchmarks/browser-build.md says how to make it)`);
    process.exit(2);
  }

// One server per condition: the build's folder at /, ONNX Runtime Web at /ort/, the ONNX files at /onnx/.
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
                ".wasm": "application/wasm", ".json": "application/json" };
function serve(isolated) {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = url.startsWith("/ort/") ? path.join(ortDist, url.slice(5))
               : url.startsWith("/onnx/") ? path.join(opt.onnx, url.slice(6))
               : path.join(opt.web, url === "/" ? "index.html" : url);
    const headers = { "Content-Type": types[path.extname(file)] || "application/octet-stream", "Cache-Control": "no-cache" };
    if (isolated) Object.assign(headers, { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" });
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404, headers); res.end(); return; }
      headers["Content-Length"] = data.length;
      res.writeHead(200, headers);
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const STATE = "/tmp/vitscope-state.json";  // a folder the module's file system has
const readState = (page) => page.evaluate((p) => {
  try { return JSON.parse(new TextDecoder().decode(Module.vitscopeReadFile(p))); } catch (e) { return null; }
}, STATE);
async function openExplorer(page, base) {
  const started = Date.now();
  await page.goto(`${base}/?args=${encodeURIComponent(`--state-file ${STATE} --no-settings`)}`, { waitUntil: "load" });
  for (const until = Date.now() + 300000; ;) {
    const s = await readState(page).catch(() => null);
    if (s && s.ready) return Date.now() - started;
    if (Date.now() > until) throw new Error("the explorer did not show its first map in 5 minutes");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "vitscope-ort-web-"));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true, userDataDir: profile,
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run",
         "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
});
const results = { browser: await browser.version(), cpu: os.cpus()[0].model, cores: os.cpus().length, conditions: [] };
try {
  for (const isolated of [true, false]) {
    const server = await serve(isolated);
    const base = `http://127.0.0.1:${server.address().port}`;
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    page.on("pageerror", (e) => console.error("page error:", String(e)));
    const condition = { name: isolated ? "threads" : "one thread", sizes: [] };
    condition.firstMapMs = await openExplorer(page, base);
    if (isolated) condition.firstMapCachedMs = await openExplorer(page, base);  // the model now from cache storage
    condition.isolated = await page.evaluate(() => self.crossOriginIsolated === true);
    condition.threads = isolated ? await page.evaluate(() => navigator.hardwareConcurrency) : 1;
    await page.addScriptTag({ url: `${base}/ort/ort.wasm.min.js` });
    await page.evaluate(() => {
      // vitscope's passes run off the page's thread (web_page_hooks.h); the page waits without blocking.
      window.vitscopeTiming = async (size, runs) => {
        Module.ccall("vitscope_start_timing", null, ["number", "number", "string"], [size, runs, "/tmp/bench"]);
        for (;;) {
          const r = Module.ccall("vitscope_timing_result", "string", [], []);
          if (r) return JSON.parse(r);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
    });
    await page.evaluate((threads) => {
      ort.env.wasm.wasmPaths = "/ort/";
      ort.env.wasm.numThreads = threads;
      ort.env.wasm.simd = true;
    }, condition.threads);
    for (const size of sizes) {
      // The same input for both: vitscope's preprocessing of the photo on show.
      const check = await page.evaluate(async (size) => {
        const r = await vitscopeTiming(size, 1);
        if (r.error) throw new Error(r.error);
        const floats = (p) => { const b = Module.vitscopeReadFile(p); return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)); };
        window.benchInput = new ort.Tensor("float32", floats("/tmp/bench/input.f32"), [1, 3, size, size]);
        window.benchSession = await ort.InferenceSession.create(`/onnx/ti${size}.onnx`, { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
        const out = await window.benchSession.run({ [window.benchSession.inputNames[0]]: window.benchInput });
        const theirs = out[window.benchSession.outputNames[0]].data, ours = floats("/tmp/bench/logits.f32");
        let diff = 0, largest = 0;
        for (let i = 0; i < ours.length; ++i) diff = Math.max(diff, Math.abs(ours[i] - theirs[i])), largest = Math.max(largest, Math.abs(theirs[i]));
        const top = (a) => a.indexOf(Math.max(...a));
        return { relDiff: diff / largest, topOurs: top(Array.from(ours)), topTheirs: top(Array.from(theirs)) };
      }, size);
      if (!(check.relDiff <= 1e-4) || check.topOurs !== check.topTheirs)
        throw new Error(`at ${size} px the two disagree: ${JSON.stringify(check)}`);
      const times = { vitscope: [], ort: [] };
      for (let round = 0; round < rounds; ++round) {
        const order = round % 2 ? ["ort", "vitscope"] : ["vitscope", "ort"];
        for (const engine of order) {
          const ms = await page.evaluate(async (engine, size, runs, warmup) => {
            if (engine === "vitscope") return (await vitscopeTiming(size, warmup + runs)).ms.slice(warmup);
            const feeds = { [window.benchSession.inputNames[0]]: window.benchInput }, ms = [];
            for (let i = 0; i < warmup + runs; ++i) {
              const t0 = performance.now();
              await window.benchSession.run(feeds);
              if (i >= warmup) ms.push(performance.now() - t0);
            }
            return ms;
          }, engine, size, runs, warmup);
          times[engine].push(...ms);
        }
      }
      await page.evaluate(() => window.benchSession.release());
      condition.sizes.push({ size, check, times, vitscopeMs: median(times.vitscope), ortMs: median(times.ort),
                             ratio: median(times.vitscope) / median(times.ort) });
    }
    await page.close();
    server.close();
    results.conditions.push(condition);
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
fs.writeFileSync(opt.out, JSON.stringify(results, null, 1) + "\n");
console.log(`${results.browser}, ${results.cpu}, ${results.cores} cores; ${rounds} rounds x ${runs} passes, medians (ms):`);
console.log("| condition | size | vitscope (full trace) | ONNX Runtime Web | ratio | logits rel. diff |");
console.log("|---|---|---|---|---|---|");
for (const c of results.conditions)
  for (const s of c.sizes)
    console.log(`| ${c.name} (${c.threads}) | ${s.size} | ${s.vitscopeMs.toFixed(1)} | ${s.ortMs.toFixed(1)} | ${s.ratio.toFixed(2)}x | ${s.check.relDiff.toExponential(1)} |`);
for (const c of results.conditions)
  console.log(`${c.name}: first map ${c.firstMapMs} ms` + (c.firstMapCachedMs ? `, model cached ${c.firstMapCachedMs} ms` : ""));
console.log(`every pass: ${opt.out}`);
