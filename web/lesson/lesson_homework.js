// The lesson page's homework (vitscope lesson --exercises FILE): one element
// per exercise (data-exercise="N", N as in the answer key), the student's
// input, and the check. The page holds each exercise's setting but not the
// model's answer to a computed kind: Check computes it here from the page's
// own q and k (LessonMath), then shows the verdict, the right answer and the
// arithmetic, and selects that layer, head, query and key on the page.
//
// Honest: until an exercise is checked, the page shows nothing that answers
// it: its row (layer, head or the mean, query) is hidden wherever the page
// would draw or list it (lesson.js asks hides()), and a link that would open
// that row is refused. The first Check counts; the hand-in CSV carries the
// student's name, the page's variant, each answer as typed and a code.
"use strict";

const LessonHomework = (() => {
  const NUMERIC = ["weight", "score", "scaled_score", "exp", "z"];
  const WHAT = { weight: "weight", score: "score q·k", scaled_score: "scaled score", exp: "exp of the scaled score", z: "Z" };

  function start(page) {
    const { data, meta, values, update, redraw, drawMap, tokenName, fmt, arithmeticLines, escapeHtml } = page;
    const M = LessonMath;
    const $ = (id) => document.getElementById(id);
    const box = $("exercises");
    const variant = data.variant || "1";
    // Per exercise: what is entered now, and what was checked (the answer that counts).
    const entries = data.exercises.map((e) => ({ e, picked: -1, marked: new Set(), checked: null }));
    // Checked answers are kept in the browser (per photo, model, variant, student and exercises), so a reload
    // or a closed tab loses nothing and the first Check still counts. Without storage they last the visit.
    const storeKey = "vitscope-homework:" + JSON.stringify([data.photo, data.model, variant, data.student || "",
      data.exercises.map((e) => [e.n, e.kind, e.title])]);
    function loadSaved() {
      try { return JSON.parse(localStorage.getItem(storeKey) || "{}") || {}; } catch (err) { return {}; }
    }
    function save(n, input) {
      try { localStorage.setItem(storeKey, JSON.stringify({ ...loadSaved(), [n]: input })); } catch (err) { /* kept for this visit only */ }
    }

    // The row the model gives this exercise's query in its layer and head (or the mean of the
    // layer's heads), from the page's numbers: {row, bound, weight, wbound}.
    function rowOf(e) {
      const one = (h) => {
        const a = M.headArrays(values, meta, e.layer, h);
        const row = M.attentionRow(a.q, a.k, meta.tokens, meta.head_dim, e.query);
        return { row, bound: M.weightErrorBound(a.q, a.k, meta.tokens, meta.head_dim, e.query, row.weight) };
      };
      if (!e.mean) { const r = one(e.head); return { ...r, weight: r.row.weight, wbound: r.bound.bound }; }
      const heads = [];
      for (let h = 0; h < meta.heads; h++) heads.push(one(h));
      return { row: null, bound: null, weight: M.meanWeights(heads.map((r) => r.row.weight)),
               wbound: M.meanWeights(heads.map((r) => r.bound.bound)) };
    }
    const arithmeticTable = (lines) =>
      `<table class="arith">${lines.map(([n, v, why]) => `<tr><td>${n}</td><td class="num">${v}</td><td>${why}</td></tr>`).join("")}</table>`;
    const where = (e) => `layer ${e.layer}, ${e.mean ? "the mean of its heads" : "head " + e.head}`;

    // The exercise (unchecked, answered from a map) whose row `sel` would show, or null.
    function hides(sel) {
      for (const { e, checked } of entries) {
        if (checked || e.kind === "choice" || e.layer === undefined) continue;
        if (sel.layer !== e.layer || sel.query !== e.query) continue;
        // The mean is made of the heads: a mean exercise hides each of the layer's heads too.
        if (e.mean || (!sel.mean && sel.head === e.head)) return e.n;
      }
      return null;
    }

    function precisionText(e) {
      const p = e.precision || { significant: false, digits: 3 };
      const digits = p.significant ? `${p.digits} significant figures` : p.digits === 0 ? "a whole number"
        : `${p.digits} decimal${p.digits === 1 ? "" : "s"}`;
      return digits + (e.kind === "weight" ? ", or a percentage" : "");
    }

    function element(entry) {
      const { e } = entry;
      const div = document.createElement("div");
      div.className = "exercise";
      div.dataset.exercise = e.n;
      div.dataset.kind = e.kind;
      let input = "";
      if (e.kind === "top_key" || e.kind === "predict_region") {
        input = `<canvas class="ex-photo" aria-label="the photo: ${e.kind === "top_key" ? "click the key" : "mark patches"}"></canvas>`;
        if (e.kind === "top_key") {
          const prefix = meta.prefix_names.map((name, j) => `<button class="ex-prefix" data-token="${j}">${escapeHtml(name)}</button>`);
          input += `<p class="buttons">${prefix.join("")} <span class="ex-picked hint">Nothing chosen yet.</span></p>`;
        } else {
          input += `<p class="buttons"><button class="ex-clear">Clear marks</button> <span class="ex-picked hint">0 patches marked.</span></p>`;
        }
        input += `<p class="hint ex-hidden-note">The map of this question is hidden until you check it.</p>`;
      } else if (NUMERIC.includes(e.kind)) {
        input = `<p><input class="ex-number" type="text" inputmode="decimal" autocomplete="off" size="12" ` +
          `aria-label="your answer to exercise ${e.n}"> <span class="hint">(${precisionText(e)})</span></p>`;
      } else if (e.kind === "choice") {
        const several = e.answer_count > 1;
        input = (several ? `<p class="hint">More than one option is right: tick every right one.</p>` : "") +
          `<div class="ex-options">${e.options.map((o, i) =>
            `<label><input type="${several ? "checkbox" : "radio"}" name="ex-${e.n}" value="${i + 1}"> ` +
            `<b>${i + 1}.</b> ${escapeHtml(o)}</label>`).join("")}</div>`;
      }
      div.innerHTML = `<h3>${e.n}. ${escapeHtml(e.title)}</h3>${e.text.map((p) => `<p>${escapeHtml(p)}</p>`).join("")}` +
        input + `<p class="buttons"><button class="ex-check">Check</button></p>` +
        `<p class="ex-note" role="status" hidden></p><div class="ex-verdict" role="status" hidden></div>`;
      return div;
    }

    // The exercise's photo: the patch grid, the query outlined in blue, the
    // student's patches in pink; after the check, the map the row draws and
    // the right answer ringed in black and white, which stays visible on any colour.
    function drawPhoto(entry) {
      const canvas = entry.div.querySelector(".ex-photo");
      if (!canvas || !page.photo.complete) return;
      const { e } = entry;
      const dpr = window.devicePixelRatio || 1;
      const css = canvas.clientWidth || 320;
      const weight = entry.checked ? rowOf(e).weight : new Float64Array(meta.tokens);
      drawMap(canvas, weight, { outline: false, size: css });
      const g = canvas.getContext("2d"), px = canvas.width, cell = px / meta.grid;
      g.strokeStyle = "rgba(255,255,255,0.25)"; g.lineWidth = 1;
      for (let i = 1; i < meta.grid; i++) {
        g.beginPath(); g.moveTo(i * cell, 0); g.lineTo(i * cell, px); g.moveTo(0, i * cell); g.lineTo(px, i * cell); g.stroke();
      }
      const box = (token, colour, fill, inset = 1, dash = []) => {
        if (token < meta.prefix) return;
        const x = M.colOf(token, meta) * cell, y = M.rowOf(token, meta) * cell;
        if (fill) { g.fillStyle = fill; g.fillRect(x, y, cell, cell); }
        g.strokeStyle = colour; g.lineWidth = 2 * dpr; g.setLineDash(dash.map((d) => d * dpr));
        g.strokeRect(x + inset * dpr, y + inset * dpr, cell - 2 * inset * dpr, cell - 2 * inset * dpr);
        g.setLineDash([]);
      };
      box(e.query, "#5ad1ff", null);
      const mine = e.kind === "top_key" ? (entry.picked >= 0 ? [entry.picked] : []) : [...entry.marked];
      for (const j of mine) box(j, "#ff5aa0", entry.checked ? null : "rgba(255,90,160,0.35)", 3, entry.checked ? [4, 3] : []);
      // The answer: a black ring inside a white one, on any cell of the colormap (and on the query's blue).
      if (entry.checked && e.kind === "top_key") for (const j of entry.checked.accepted) { box(j, "#000", null, 1); box(j, "#fff", null, 3); }
    }

    function tokenAt(canvas, event) {
      const r = canvas.getBoundingClientRect();
      const col = Math.floor(((event.clientX - r.left) / r.width) * meta.grid);
      const row = Math.floor(((event.clientY - r.top) / r.height) * meta.grid);
      if (row < 0 || col < 0 || row >= meta.grid || col >= meta.grid) return -1;
      return meta.prefix + row * meta.grid + col;
    }

    function showPicked(entry) {
      const span = entry.div.querySelector(".ex-picked");
      if (!span) return;
      if (entry.e.kind === "top_key") span.textContent = entry.picked >= 0 ? `Your answer: ${tokenName(entry.picked)}.` : "Nothing chosen yet.";
      else span.textContent = `${entry.marked.size} patch${entry.marked.size === 1 ? "" : "es"} marked.`;
      drawPhoto(entry);
    }

    function note(entry, text) {
      const p = entry.div.querySelector(".ex-note");
      p.hidden = !text;
      p.textContent = text || "";
    }

    // The student's answer as entered ({value, typed: what the hand-in records}), or {error} for the note.
    function answerOf(entry) {
      const { e, div } = entry;
      if (e.kind === "top_key") return entry.picked >= 0 ? { value: entry.picked, typed: String(entry.picked) } : { error: "Click a patch on the photo (or CLS) first." };
      if (e.kind === "predict_region") {
        if (!entry.marked.size) return { error: "Mark at least one patch on the photo first." };
        const marked = [...entry.marked].sort((a, b) => a - b);
        return { value: marked, typed: marked.join(" ") };
      }
      if (e.kind === "choice") {
        const on = [...div.querySelectorAll(".ex-options input:checked")].map((x) => Number(x.value)).sort((a, b) => a - b);
        if (!on.length) return { error: e.answer_count > 1 ? "Tick the options you choose first." : "Choose one of the options first." };
        return { value: on, typed: on.join(" ") };
      }
      const text = div.querySelector(".ex-number").value.trim();
      const parsed = M.parseAnswerNumber(text, { percent: e.kind === "weight" });
      return parsed.error ? parsed : { value: parsed.value, typed: text };
    }

    const optionsText = (e, list) => list.map((o) => `${o}. ${escapeHtml(e.options[o - 1])}`).join("; ");

    // The verdict with the right answer and how the model's numbers give it.
    function check(entry, restoring = false) {
      const { e, div } = entry;
      if (entry.checked) return;
      const answer = answerOf(entry);
      if (answer.error) { note(entry, answer.error); return; }
      note(entry, "");
      let correct = false, html = "", pageAnswer = "", key = -1, accepted = [];
      if (e.kind === "choice") {
        // The page holds a code of the right options, not the options: found again now it is checked.
        correct = M.choiceCode(e.n, e.title, answer.value) === e.answer_code;
        const right = correct ? answer.value : M.rightOptions(e.n, e.title, e.options.length, e.answer_count, e.answer_code);
        pageAnswer = right.join(" ");
        html = `<p>Your answer: ${optionsText(e, answer.value)}.</p>` +
          `<p>The answer${right.length > 1 ? "s" : ""}: ${optionsText(e, right)}.</p>`;
      } else {
        const r = rowOf(e);
        const isQuery = (j) => (j === e.query ? " (your query itself)" : "");
        if (e.kind === "top_key") {
          const top = e.mean ? M.meanTopKeys(r.weight, r.wbound) : M.topKeys(r.row.scaled, r.bound.epsilon);
          accepted = top.accepted;
          correct = top.accepted.includes(answer.value);
          key = top.top;
          pageAnswer = top.top;
          div.dataset.accepted = top.accepted.join(" ");
          html = `<p>Your answer: ${tokenName(answer.value)}${isQuery(answer.value)}, weight ${fmt(r.weight[answer.value], 4)}.</p>` +
            `<p>Query ${tokenName(e.query)} weighs ${tokenName(top.top)}${isQuery(top.top)} most in ${where(e)}: ` +
            `weight ${fmt(r.weight[top.top], 4)}, the largest of its ${meta.tokens} keys` +
            (top.top >= meta.prefix ? " (ringed in black and white on the photo)" : "") + `.` +
            (top.accepted.length > 1
              ? ` A near-tie: ${top.accepted.filter((j) => j !== top.top).map((j) => `${tokenName(j)} (weight ${fmt(r.weight[j], 4)})`).join(", ")} ` +
                `${top.accepted.length > 2 ? "are" : "is"} within the 16-bit rounding of this page's numbers, ` +
                `so the model's own order could differ: either answer counts.`
              : "") + `</p>` + (e.mean ? "" : arithmeticTable(arithmeticLines(r.row, e.query, top.top, r.bound)));
        } else if (NUMERIC.includes(e.kind)) {
          key = e.key === undefined ? -1 : e.key;
          const truth = { weight: () => r.weight[key], score: () => r.row.score[key], scaled_score: () => r.row.scaled[key],
                          exp: () => r.row.expScaled[key], z: () => r.row.zScaled }[e.kind]();
          const tol = e.relative ? e.tolerance * Math.abs(truth) : e.tolerance;
          correct = Math.abs(answer.value - truth) <= tol;
          pageAnswer = truth;
          const shown = (x) => M.formatToPrecision(x, e.precision || { significant: false, digits: 3 });
          const typedPercent = e.kind === "weight" && /%\s*$/.test(answer.typed);
          html = `<p>Your answer: ${escapeHtml(answer.typed)}${typedPercent ? ` (${shown(answer.value)})` : ""}.</p>` +
            `<p>The ${WHAT[e.kind]}: ${shown(truth)}${e.kind === "weight" ? ` (${(100 * truth).toPrecision(3)}%)` : ""}; ` +
            `right from ${shown(truth - tol)} to ${shown(truth + tol)} (± ${e.relative ? 100 * e.tolerance + "%" : e.tolerance}).</p>` +
            (e.mean || (key < 0 && e.kind !== "z") ? "" : arithmeticTable(arithmeticLines(r.row, e.query, key >= 0 ? key : e.query, r.bound)));
        } else if (e.kind === "predict_region") {
          const s = M.scorePrediction(r.weight, answer.value, meta);
          correct = s.ratio >= e.ratio;
          pageAnswer = s.ratio;
          const pct = (x) => (100 * x).toFixed(1) + "%";
          html = `<p>The ${s.marked} patches you marked (${pct(s.areaShare)} of the ${s.patches}) hold ${pct(s.weightOnMarked)} ` +
            `of the weight; an even spread of the patches' ${pct(s.weightOnPatches)} would put ${pct(s.evenSpread)} there: ` +
            `${s.ratio.toFixed(2)} times an even spread (${pct(s.weightOnMarked)} ÷ ${pct(s.evenSpread)}). Passing needs ${e.ratio} times. ` +
            `The photo now shows the map.</p>`;
        }
      }
      entry.checked = { answer: answer.typed, correct, accepted };
      // Shown only now that it is checked: the page's view moves to the exercise's row.
      if (!restoring && e.kind !== "choice") update({ layer: e.layer, ...(e.mean ? { mean: true } : { head: e.head, mean: false }), query: e.query, key });
      if (!restoring) { redraw(); save(e.n, answer.typed); }
      div.dataset.answer = String(pageAnswer);
      div.dataset.verdict = correct ? "right" : "wrong";
      const verdict = div.querySelector(".ex-verdict");
      verdict.hidden = false;
      verdict.className = "ex-verdict " + (correct ? "right" : "wrong");
      verdict.innerHTML = `<p><b>${correct ? "Right." : "Not right."}</b></p>` + html +
        (key >= 0 && !e.mean ? `<p class="hint">The page now shows this query and key: “The arithmetic for one key” has the same steps.</p>` : "");
      for (const el of div.querySelectorAll("input, button")) el.disabled = true;
      for (const el of div.querySelectorAll(".ex-hidden-note")) el.hidden = true;
      drawPhoto(entry);
      showProgress();
    }

    function showProgress() {
      const done = entries.filter((x) => x.checked).length;
      $("homework-progress").textContent = `${done} of ${entries.length} checked.`;
    }

    // Bound once, so the page holds no text a self-containment check reads as a CSS url fetch (tests/app/gui/lesson_page_test.py).
    const blobLink = URL.createObjectURL.bind(URL), dropBlobLink = URL.revokeObjectURL.bind(URL);
    const fileSafe = (s) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
    function downloadAnswers() {
      const student = (data.student || $("student-name").value).trim();
      if (!student) {
        $("answers-note").textContent = "Type your name first: the answers carry it.";
        $("student-name").focus();
        return;
      }
      const rows = entries.map(({ e, checked }) =>
        ({ exercise: e.n, kind: e.kind, answer: checked ? checked.answer : "", correct: checked ? (checked.correct ? "yes" : "no") : "" }));
      const csv = M.answersCsv(student, variant, rows);
      const link = $("answers-link");
      if (link.href) dropBlobLink(link.href);
      link.href = blobLink(new Blob([csv], { type: "text/csv" }));
      link.download = `answers-${fileSafe(student) || "student"}-${fileSafe(data.photo.replace(/\.[^.]*$/, ""))}.csv`;
      link.textContent = link.download;
      link.hidden = false;
      const done = entries.filter((x) => x.checked).length;
      $("answers-note").textContent = `${done} of ${entries.length} checked; unchecked exercises have an empty answer.`;
      link.click();
    }

    $("homework").hidden = false;
    // Announced on the first screen: on a phone the homework starts far below it.
    $("homework-banner").hidden = false;
    $("homework-banner-text").textContent = `Homework: ${entries.length} exercise${entries.length === 1 ? "" : "s"}` +
      (data.student ? ` for ${data.student}` : "") + `, under the photo.`;
    $("homework-go").addEventListener("click", () => $("homework").scrollIntoView({ behavior: "smooth", block: "start" }));
    if (data.student) {
      $("student-name").value = data.student;
      $("student-name").readOnly = true;
    }
    for (const entry of entries) {
      entry.div = element(entry);
      box.appendChild(entry.div);
      const canvas = entry.div.querySelector(".ex-photo");
      if (canvas) canvas.addEventListener("click", (ev) => {
        if (entry.checked) return;
        const j = tokenAt(canvas, ev);
        if (j < 0) return;
        if (entry.e.kind === "top_key") entry.picked = j;
        else if (entry.marked.has(j)) entry.marked.delete(j);
        else entry.marked.add(j);
        note(entry, "");
        showPicked(entry);
      });
      for (const b of entry.div.querySelectorAll(".ex-prefix"))
        b.addEventListener("click", () => { entry.picked = Number(b.dataset.token); note(entry, ""); showPicked(entry); });
      const clear = entry.div.querySelector(".ex-clear");
      if (clear) clear.addEventListener("click", () => { entry.marked.clear(); showPicked(entry); });
      const number = entry.div.querySelector(".ex-number");
      if (number) number.addEventListener("keydown", (ev) => { ev.stopPropagation(); if (ev.key === "Enter") check(entry); });
      entry.div.querySelector(".ex-check").addEventListener("click", () => check(entry));
    }
    // The answers checked on an earlier visit, entered again and checked as then.
    const saved = loadSaved();
    for (const entry of entries) {
      const input = saved[entry.e.n];
      if (input === undefined) continue;
      const { e, div } = entry;
      if (e.kind === "top_key") entry.picked = Number(input);
      else if (e.kind === "predict_region") entry.marked = new Set(String(input).split(/[ ,]+/).map(Number));
      else if (e.kind === "choice") {
        for (const o of String(input).split(/[ ,]+/)) { const r = div.querySelector(`.ex-options input[value="${Number(o)}"]`); if (r) r.checked = true; }
      } else div.querySelector(".ex-number").value = String(input);
      showPicked(entry);
      check(entry, true);
    }
    showProgress();
    $("download-answers").addEventListener("click", downloadAnswers);
    window.addEventListener("resize", () => entries.forEach(drawPhoto));
    return { draw: () => entries.forEach(drawPhoto), hides };
  }
  return { start };
})();
