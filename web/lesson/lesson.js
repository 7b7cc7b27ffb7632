// The lesson page's interface: reads the data the export embedded, keeps the
// selection (layer, head or mean, query, key) in one object, and redraws
// from it. The arithmetic is LessonMath's (lesson_math.js); this file only
// draws and handles input. The URL fragment mirrors the selection.
"use strict";

(() => {
  const M = LessonMath;
  const phases = { scriptStart: performance.now() };
  const data = JSON.parse(document.getElementById("lesson-data").textContent);
  phases.parsed = performance.now();
  const meta = data.meta;
  const values = M.decodeHalves(M.base64ToBytes(data.qkv));
  phases.decoded = performance.now();
  const $ = (id) => document.getElementById(id);
  const FADE_OPACITY = 0.8;  // as the app: a patch's opacity follows its weight

  // Where the export's selection was (the window's), unless the fragment says otherwise.
  const state = { mean: false, ...data.start, key: -1, tapChoosesKey: false, tourStep: 0 };
  let linkIgnored = [];  // what the link asked for that this page cannot show: said on the page, never silently dropped
  let homework = null;   // the homework, when the export was given exercises (lesson_homework.js)
  // The exercise whose row a selection would show before it is checked (its map and weights are hidden), or null.
  const hiddenBy = (sel) => (homework ? homework.hides(sel) : null);

  const photo = new Image();
  let rows = null;  // the query's rows for every layer and head, recomputed when the query changes
  let rowsQuery = -1;
  // firstMapMs: since navigation began; queryMs: the rows of a new query; renderMs: a whole redraw.
  const timings = { firstMapMs: null, queryMs: [], renderMs: [], phases };
  window.lessonTimings = timings;  // read by the browser test and BENCHMARKS.md

  function fromFragment(hash) {
    const f = M.parseFragment(hash, meta);
    linkIgnored = f.ignored || [];
    const out = {};
    if (f.layer !== undefined) out.layer = f.layer;
    if (f.head === "mean") out.mean = true;
    else if (f.head !== undefined) { out.head = f.head; out.mean = false; }
    if (f.query !== undefined) { out.query = f.query; out.key = -1; }
    // A link that opens an unchecked exercise's row would show its answer: refused, and said so.
    const n = hiddenBy({ ...state, ...out });
    if (n !== null && (out.layer !== undefined || out.head !== undefined || out.mean !== undefined || out.query !== undefined)) {
      const asked = { ...state, ...out };
      linkIgnored.push(`${M.formatFragment({ ...asked, head: asked.mean ? "mean" : asked.head }, meta)} ` +
        `(that is exercise ${n}'s question: the link opens it once you have checked it)`);
      return {};
    }
    return out;
  }

  function tokenName(j) {
    if (j < meta.prefix) return meta.prefix_names[j];
    return `patch (${M.rowOf(j, meta)}, ${M.colOf(j, meta)})`;
  }
  const fmt = (x, digits = 4) => (Math.abs(x) >= 1e-3 || x === 0 ? x.toFixed(digits) : x.toExponential(2));
  // exp and Z as the window writes them: 1146.7, or 3.2e+5 when large; "beyond double's range" past ~1.8e308.
  const fmtBig = (x, digits) => (!Number.isFinite(x) ? "beyond double's range (see the safeguard below)"
    : Math.abs(x) >= 1e5 ? x.toExponential(3) : fmt(x, digits));
  const percent = (x) => (x >= 0.01 ? (100 * x).toFixed(1) : (100 * x).toFixed(2)) + "%";

  // Every layer's and head's row for the current query (36 rows of 197 for the default model: a few ms).
  function ensureRows() {
    if (rows && rowsQuery === state.query) return;
    const t0 = performance.now();
    rows = [];
    for (let l = 0; l < meta.layers; l++) {
      const layerRows = [];
      for (let h = 0; h < meta.heads; h++) {
        const a = M.headArrays(values, meta, l, h);
        layerRows.push(M.attentionRow(a.q, a.k, meta.tokens, meta.head_dim, state.query));
      }
      rows.push(layerRows);
    }
    rowsQuery = state.query;
    timings.queryMs.push(performance.now() - t0);
  }

  const blank = new Float64Array(meta.tokens);  // a hidden row: the photo without a map

  function shownWeights(layer, mean, head) {
    if (mean) return M.meanWeights(rows[layer].map((r) => r.weight));
    return rows[layer][head].weight;
  }

  // The photo at each pixel size a canvas needs, scaled once: redrawing a map
  // is then one copy of it and one copy of the grid x grid heat image.
  const scaledPhotos = new Map();
  function photoAt(px) {
    if (!scaledPhotos.has(px)) {
      const c = document.createElement("canvas");
      c.width = c.height = px;
      const g = c.getContext("2d");
      g.imageSmoothingQuality = "high";
      g.drawImage(photo, 0, 0, px, px);
      scaledPhotos.set(px, c);
    }
    return scaledPhotos.get(px);
  }
  const heat = document.createElement("canvas");
  const heatPixels = new ImageData(meta.grid, meta.grid);
  heat.width = heat.height = meta.grid;

  // The photo with one row's weights over it, scaled to the row's largest patch weight.
  function drawMap(canvas, weight, { outline = true, size } = {}) {
    const dpr = window.devicePixelRatio || 1;
    const css = size || canvas.clientWidth || 96;
    const px = Math.max(1, Math.round(css * dpr));
    if (canvas.width !== px) { canvas.width = px; canvas.height = px; }
    const g = canvas.getContext("2d");
    g.drawImage(photoAt(px), 0, 0);
    const top = M.patchMax(weight, meta);
    for (let j = meta.prefix; j < meta.tokens; j++) {
      const t = top > 0 ? weight[j] / top : 0;
      const [r, gr, b] = M.viridis(t);
      const at = 4 * (j - meta.prefix);
      heatPixels.data[at] = r; heatPixels.data[at + 1] = gr; heatPixels.data[at + 2] = b;
      heatPixels.data[at + 3] = Math.round(255 * FADE_OPACITY * t);
    }
    heat.getContext("2d").putImageData(heatPixels, 0, 0);
    g.imageSmoothingEnabled = false;  // one flat colour a patch, as the app draws it without "smooth"
    g.drawImage(heat, 0, 0, px, px);
    g.imageSmoothingEnabled = true;
    if (!outline) return top;
    const cell = px / meta.grid;
    const box = (token, colour, width, dash) => {
      if (token < meta.prefix) return;
      g.strokeStyle = colour; g.lineWidth = width * dpr; g.setLineDash(dash.map((d) => d * dpr));
      g.strokeRect(M.colOf(token, meta) * cell + 1, M.rowOf(token, meta) * cell + 1, cell - 2, cell - 2);
    };
    box(state.query, "#5ad1ff", Math.max(1, Math.min(3, css / 100)), []);
    if (state.key >= 0 && css > 120) box(state.key, "#ff5aa0", 2, [4, 3]);
    g.setLineDash([]);
    if (state.query < meta.prefix && css > 200) {
      // CLS (or a register) has no patch to outline: a label names the query instead.
      const text = `query: ${tokenName(state.query)} (no patch)`;
      g.font = `${Math.round(13 * dpr)}px system-ui, sans-serif`;
      const w = g.measureText(text).width + 10 * dpr, h = 20 * dpr;
      g.fillStyle = "rgba(0, 0, 0, 0.7)";
      g.fillRect(4 * dpr, 4 * dpr, w, h);
      g.fillStyle = "#5ad1ff";
      g.textBaseline = "middle";
      g.fillText(text, 9 * dpr, 4 * dpr + h / 2);
    }
    return top;
  }

  function drawColorbar(top) {
    const c = $("colorbar");
    const w = Math.max(1, Math.round(c.clientWidth * (window.devicePixelRatio || 1)));
    c.width = w; c.height = 14;
    const g = c.getContext("2d");
    for (let x = 0; x < w; x++) {
      const [r, gr, b] = M.viridis(x / Math.max(1, w - 1));
      g.fillStyle = `rgb(${r},${gr},${b})`;
      g.fillRect(x, 0, 1, 14);
    }
    const labels = [0, 0.25, 0.5, 0.75, 1].map((f) => `<span>${fmt(f * top, 3)}</span>`);
    $("colorbar-labels").innerHTML = labels.join("");
  }

  function drawThumbs() {
    $("thumbs-layer").textContent = state.layer;
    const box = $("thumbs");
    if (box.children.length !== meta.heads + 1) {
      box.innerHTML = "";
      for (let h = 0; h <= meta.heads; h++) {
        const f = document.createElement("figure");
        f.innerHTML = `<canvas></canvas><figcaption>${h < meta.heads ? "head " + h : "mean"}</figcaption>`;
        f.addEventListener("click", () => update(h < meta.heads ? { head: h, mean: false } : { mean: true }));
        box.appendChild(f);
      }
    }
    [...box.children].forEach((f, h) => {
      const mean = h === meta.heads;
      f.classList.toggle("on", mean ? state.mean : !state.mean && h === state.head);
      const c = f.querySelector("canvas");
      const hidden = hiddenBy({ layer: state.layer, head: h, mean, query: state.query }) !== null;
      f.classList.toggle("hidden-row", hidden);
      drawMap(c, hidden ? blank : shownWeights(state.layer, mean, h), { outline: true, size: c.clientWidth || 96 });
    });
  }

  // The layers x heads grid as the window draws it: a row per layer, a column per head.
  function drawGrid() {
    const grid = $("grid");
    if (!grid.children.length) {
      grid.style.gridTemplateColumns = `auto repeat(${meta.heads}, minmax(0, 120px))`;
      grid.appendChild(document.createElement("span"));
      for (let h = 0; h < meta.heads; h++) grid.insertAdjacentHTML("beforeend", `<span class="head-label">head ${h}</span>`);
      for (let l = 0; l < meta.layers; l++) {
        grid.insertAdjacentHTML("beforeend", `<span class="layer-label">layer ${l}</span>`);
        for (let h = 0; h < meta.heads; h++) {
          const c = document.createElement("canvas");
          c.dataset.layer = l; c.dataset.head = h;
          c.title = `layer ${l}, head ${h}`;
          c.addEventListener("click", () => update({ layer: l, head: h, mean: false }));
          grid.appendChild(c);
        }
      }
    }
    for (const c of grid.querySelectorAll("canvas")) {
      const l = Number(c.dataset.layer), h = Number(c.dataset.head);
      c.classList.toggle("on", l === state.layer && !state.mean && h === state.head);
      const hidden = hiddenBy({ layer: l, head: h, mean: false, query: state.query }) !== null;
      drawMap(c, hidden ? blank : rows[l][h].weight, { outline: true, size: c.clientWidth || 96 });
    }
  }

  // The steps from q and k to the weight of one key (name, value, why), as
  // the math panel shows them and a homework answer explains itself.
  function arithmeticLines(row, query, key, bound) {
    const q = `<span class="query">${tokenName(query)}</span>`;
    const k = `<span class="key">${tokenName(key)}</span>`;
    return [
      [`score q·k`, fmt(row.score[key]), `q of ${q} · k of ${k}, ${meta.head_dim} products summed`],
      [`÷ √dₖ`, fmt(row.scaled[key]), `÷ √${meta.head_dim} = ${fmt(row.sqrtDk, 2)}`],
      [`exp`, fmtBig(row.expScaled[key], 6), `exp(${fmt(row.scaled[key])})`],
      [`Z`, fmtBig(row.zScaled, 1), `Σ exp of the scaled scores over all ${meta.tokens} keys`],
      [`weight a`, fmt(row.weight[key], 6), `exp ÷ Z; vitscope's float32 value is within ±${bound.bound[key].toExponential(1)}`],
    ];
  }

  // The pair (query, key) of the selected head, step by step.
  function drawMath() {
    const row = rows[state.layer][state.head];
    const key = state.key >= 0 ? state.key : row.weight.indexOf(Math.max(...row.weight));
    const a = M.headArrays(values, meta, state.layer, state.head);
    const bound = M.weightErrorBound(a.q, a.k, meta.tokens, meta.head_dim, state.query, row.weight);
    const out = M.outputContributions(row.weight, a.v, meta.tokens, meta.head_dim, 5);
    const q = `<span class="query">${tokenName(state.query)}</span>`;
    const k = `<span class="key">${tokenName(key)}</span>`;
    const lines = arithmeticLines(row, state.query, key, bound);
    // The safeguard, said once: the same weights, computed without overflowing exp.
    const safeguard = `<p class="hint" id="safeguard">A numerical safeguard: vitscope (and this page) subtract the row's largest scaled score, ` +
      `${fmt(row.expShift)}, before taking exp, so exp never overflows. Every exp and Z is then multiplied by the same ` +
      `e<sup>−${fmt(row.expShift)}</sup>, which cancels in exp ÷ Z: the weight is the same ` +
      `(shifted: exp ${fmt(row.expScore[key], 6)}, Z ${fmt(row.z, 4)}, weight ${fmt(row.expScore[key] / row.z, 6)}).</p>`;
    const contributions = out.top.map((c) =>
      `<tr><td>${c.token === key ? `<span class="key">${tokenName(c.token)}</span>` : tokenName(c.token)}</td>` +
      `<td class="num">a ${fmt(c.weight)}</td><td class="num">‖v‖ ${fmt(c.valueNorm, 2)}</td><td class="num">${percent(c.share)}</td></tr>`);
    $("math").innerHTML =
      `<p>Layer ${state.layer}, head ${state.head}${state.mean ? " (the photo shows the mean of the heads; this is one head's arithmetic)" : ""}: ` +
      `query ${q}, key ${k}${state.key < 0 ? " (the strongest; hover or tap another)" : ""}.</p>` +
      `<table>${lines.map(([n, v, why]) => `<tr><td>${n}</td><td class="num">${v}</td><td>${why}</td></tr>`).join("")}</table>` +
      safeguard +
      `<p>Output o = Σ a·v, ‖o‖ = ${fmt(out.outputNorm, 3)}. Largest a·‖v‖ (share of Σ a·‖v‖):</p>` +
      `<table>${contributions.join("")}</table>`;
    return bound;
  }

  // An unchecked exercise's row: no numbers on the page (the math panel says why).
  function hideMath(n) {
    $("math").innerHTML = `<p class="hidden-row">This query's arithmetic in layer ${state.layer}, ` +
      `${state.mean ? "the mean of the heads" : "head " + state.head} is hidden until you check homework exercise ${n}.</p>`;
    return null;
  }

  function fillWeights(weight, bound, hiddenFor = null) {
    const body = $("weights").tBodies[0];
    $("weights-count").textContent = meta.tokens;
    $("weights").dataset.layer = state.layer;
    $("weights").dataset.head = state.mean ? "mean" : state.head;
    $("weights").dataset.query = state.query;
    if (hiddenFor !== null) {
      $("weights").dataset.hidden = hiddenFor;
      body.innerHTML = `<tr><td colspan="6" class="hidden-row">Hidden until you check homework exercise ${hiddenFor}.</td></tr>`;
      return;
    }
    delete $("weights").dataset.hidden;
    const rowsHtml = [];
    for (let j = 0; j < meta.tokens; j++) {
      const r = M.rowOf(j, meta), c = M.colOf(j, meta);
      const b = bound ? bound.bound[j] : NaN;
      rowsHtml.push(`<tr data-key="${j}" data-row="${r}" data-col="${c}" data-weight="${weight[j]}"` +
        (bound ? ` data-bound="${b}"` : "") + (j === state.key ? ` class="key"` : "") + `>` +
        `<td>${j}</td><td>${tokenName(j)}</td><td>${r}</td><td>${c}</td><td class="num">${weight[j].toFixed(6)}</td>` +
        `<td class="num">${bound ? b.toExponential(1) : "—"}</td></tr>`);
    }
    body.innerHTML = rowsHtml.join("");
  }

  function markKeyRow() {
    const body = $("weights").tBodies[0];
    for (const tr of body.querySelectorAll("tr.key")) tr.classList.remove("key");
    if (state.key >= 0 && body.rows[state.key]) body.rows[state.key].classList.add("key");
  }

  function drawTour() {
    if (!data.tour) return;
    const t = data.tour, i = Math.min(state.tourStep, t.steps.length - 1), step = t.steps[i];
    $("tour").hidden = false;
    $("tour-title").textContent = "Guided tour: " + t.title;
    $("tour-step-title").textContent = step.title;
    $("tour-text").innerHTML = step.text.map((p) => `<p>${escapeHtml(p)}</p>`).join("");
    $("tour-count").textContent = `${i + 1} / ${t.steps.length}`;
  }
  const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  function goTourStep(i) {
    const t = data.tour;
    const step = t.steps[Math.max(0, Math.min(i, t.steps.length - 1))];
    const change = { tourStep: t.steps.indexOf(step) };
    if (step.layer !== undefined) change.layer = step.layer;
    if (step.head !== undefined) { change.head = step.head; change.mean = false; }
    if (step.map === "mean") change.mean = true;
    if (step.query !== undefined) { change.query = step.query; change.key = -1; }
    if (step.pinned_key !== undefined) change.key = step.pinned_key;
    update(change);
  }

  // What the last render drew: parts that do not depend on what changed are left as they are.
  let drawn = null;

  function render() {
    ensureRows();
    const size = $("photo").clientWidth;
    const same = (...names) => drawn && drawn.size === size && names.every((n) => drawn[n] === state[n]);
    $("layer").value = state.layer;
    [...$("heads").children].forEach((b, h) =>
      b.classList.toggle("on", h === meta.heads ? state.mean : !state.mean && h === state.head));
    $("tap-query").classList.toggle("on", !state.tapChoosesKey);
    $("tap-key").classList.toggle("on", state.tapChoosesKey);
    const hiddenFor = hiddenBy(state);
    const weight = hiddenFor === null ? shownWeights(state.layer, state.mean, state.head) : blank;
    const top = drawMap($("photo"), weight);
    drawColorbar(top);
    const shown = state.mean ? `the mean of layer ${state.layer}'s ${meta.heads} heads` : `layer ${state.layer}, head ${state.head}`;
    const queryIs = state.query < meta.prefix
      ? `the query ${tokenName(state.query)} (labelled on the map: it has no patch)`
      : `the query ${tokenName(state.query)} (outlined in blue)`;
    $("caption").textContent = hiddenFor !== null
      ? `The map of ${queryIs} in ${shown} is hidden until you check homework exercise ${hiddenFor}: it would answer it.`
      : `Softmax weights of ${queryIs} in ${shown}, ` +
        `coloured from 0 to the largest patch weight, ${fmt(top, 4)}. CLS${meta.prefix > 1 ? " and the registers" : ""}: ` +
        `${percent(weight.slice(0, meta.prefix).reduce((s, x) => s + x, 0))} of the weight.`;
    $("caption").classList.toggle("hidden-row", hiddenFor !== null);
    const again = drawn && drawn.hiddenFor !== hiddenFor;
    if (again || !same("query", "layer", "head", "mean")) drawThumbs();
    if (again || !same("query")) drawGrid();
    else for (const c of $("grid").querySelectorAll("canvas"))
      c.classList.toggle("on", Number(c.dataset.layer) === state.layer && !state.mean && Number(c.dataset.head) === state.head);
    // The math panel is one head's even when the photo shows the mean: hidden when that head's row is.
    const mathHiddenFor = hiddenFor ?? hiddenBy({ ...state, mean: false });
    const bound = mathHiddenFor === null ? drawMath() : hideMath(mathHiddenFor);
    if (again || !same("query", "layer", "head", "mean")) fillWeights(weight, state.mean ? null : bound, hiddenFor);
    else markKeyRow();
    drawTour();
    const note = $("link-note");
    note.hidden = linkIgnored.length === 0;
    note.textContent = linkIgnored.length
      ? `The link asked for ${linkIgnored.join(", ")}: ignored; showing layer ${state.layer}, ` +
        `${state.mean ? "the mean of the heads" : "head " + state.head}, query ${tokenName(state.query)}.`
      : "";
    drawn = { ...state, size, hiddenFor };
    const hash = M.formatFragment({ ...state, head: state.mean ? "mean" : state.head }, meta);
    if (location.hash !== hash) history.replaceState(null, "", hash);
    if (timings.firstMapMs === null) {
      timings.firstMapMs = performance.now();  // since navigation began
      $("timing").textContent = `First map drawn ${timings.firstMapMs.toFixed(0)} ms after opening.`;
    }
  }

  function update(change) {
    const t0 = performance.now();
    Object.assign(state, change);
    render();
    timings.renderMs.push(performance.now() - t0);
  }

  // The token under a pointer event on the photo (patches only).
  function tokenAt(event) {
    const r = $("photo").getBoundingClientRect();
    const col = Math.floor(((event.clientX - r.left) / r.width) * meta.grid);
    const row = Math.floor(((event.clientY - r.top) / r.height) * meta.grid);
    if (row < 0 || col < 0 || row >= meta.grid || col >= meta.grid) return -1;
    return meta.prefix + row * meta.grid + col;
  }

  function setUp() {
    $("photo-name").textContent = data.photo;
    $("model-name").textContent = data.model;
    $("model-shape").textContent = `${meta.layers} layers × ${meta.heads} heads, dₖ = ${meta.head_dim}, ` +
      `${meta.input_size} px input as ${meta.grid} × ${meta.grid} patches of ${meta.patch} px, ${meta.tokens} tokens`;
    $("top5").innerHTML = data.top5.map((c) => `<li>${escapeHtml(c.label)} <span class="hint">${percent(c.probability)}</span></li>`).join("");
    $("provenance").textContent = `Made by vitscope ${data.generator_version} from ${data.photo} and ${data.model}. ` +
      `The page recomputes every weight in this browser from the model's own q, k and v, stored as 16-bit floats; ` +
      `each weight is within the ± bound shown of vitscope's float32 value.`;
    for (let l = 0; l < meta.layers; l++) $("layer").insertAdjacentHTML("beforeend", `<option value="${l}">${l}</option>`);
    $("layer").addEventListener("change", (e) => update({ layer: Number(e.target.value) }));
    for (let h = 0; h <= meta.heads; h++) {
      const b = document.createElement("button");
      b.textContent = h < meta.heads ? `head ${h}` : "mean";
      b.addEventListener("click", () => update(h < meta.heads ? { head: h, mean: false } : { mean: true }));
      $("heads").appendChild(b);
    }
    $("tap-query").addEventListener("click", () => update({ tapChoosesKey: false }));
    $("tap-key").addEventListener("click", () => update({ tapChoosesKey: true }));
    const canvas = $("photo");
    canvas.addEventListener("click", (e) => {
      const j = tokenAt(e);
      if (j < 0) return;
      if (state.tapChoosesKey) update({ key: j });
      else update({ query: j, key: -1 });
    });
    canvas.addEventListener("pointermove", (e) => {
      if (e.pointerType !== "mouse") return;  // a finger's move is a tap: handled by click
      const j = tokenAt(e);
      if (j >= 0 && j !== state.key) update({ key: j });
    });
    $("weights").addEventListener("click", (e) => {
      const tr = e.target.closest("tr[data-key]");
      if (tr) update({ key: Number(tr.dataset.key) });
    });
    document.addEventListener("keydown", (e) => {
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;  // a homework answer being typed or chosen
      if (moves[e.key]) update({ query: M.movedQuery(state.query, ...moves[e.key], meta), key: -1 });
      else if (e.key === "PageUp") update({ layer: Math.max(0, state.layer - 1) });
      else if (e.key === "PageDown") update({ layer: Math.min(meta.layers - 1, state.layer + 1) });
      else if (e.key === "[") update({ head: Math.max(0, state.head - 1), mean: false });
      else if (e.key === "]") update({ head: Math.min(meta.heads - 1, state.head + 1), mean: false });
      else if (e.key === "m" || e.key === "M") update({ mean: !state.mean });
      else if (e.key === "c" || e.key === "C") update({ query: 0, key: -1 });
      else return;
      e.preventDefault();
    });
    window.addEventListener("hashchange", () => update(fromFragment(location.hash)));
    window.addEventListener("resize", () => { drawn = null; render(); });
    if (data.tour) {
      $("tour-back").addEventListener("click", () => goTourStep(state.tourStep - 1));
      $("tour-next").addEventListener("click", () => goTourStep(state.tourStep + 1));
      $("tour-show").addEventListener("click", () => goTourStep(state.tourStep));
    }
  }

  setUp();
  // The homework (when the export was given exercises): lesson_homework.js, with what it needs of this page.
  // Started before the link is read, so a link to an unchecked exercise's row is refused.
  const redraw = () => { drawn = null; if (photo.complete) render(); };
  homework = data.exercises && data.exercises.length
    ? LessonHomework.start({ data, meta, values, photo, update, redraw, drawMap, tokenName, fmt, arithmeticLines, escapeHtml })
    : null;
  Object.assign(state, fromFragment(location.hash));
  photo.onload = () => { phases.photoLoaded = performance.now(); render(); if (homework) homework.draw(); };
  photo.src = data.image;
})();
