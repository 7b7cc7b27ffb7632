// The lesson page's homework (vitscope lesson --exercises FILE): one element
// per exercise (data-exercise="N", N as in the answer key), the student's
// input, and the check. The page holds each exercise's setting but not the
// model's answer to a computed kind: Check computes it here from the page's
// own q and k (LessonMath), then shows the verdict, the right answer and the
// arithmetic, and selects that layer, head, query and key on the page.
"use strict";

const LessonHomework = (() => {
  function start(page) {
    const { data, meta, values, update, drawMap, tokenName, fmt, arithmeticLines, escapeHtml } = page;
    const M = LessonMath;
    const $ = (id) => document.getElementById(id);
    const box = $("exercises");
    // Per exercise: what is entered now, and what was checked (the answer that counts).
    const entries = data.exercises.map((e) => ({ e, picked: -1, marked: new Set(), checked: null }));
    // Checked answers are kept in the browser (per photo, model and exercises), so a reload or a
    // closed tab loses nothing and the first Check still counts. Without storage they last the visit.
    const storeKey = "vitscope-homework:" + JSON.stringify([data.photo, data.model, data.exercises.map((e) => [e.n, e.kind, e.title])]);
    function loadSaved() {
      try { return JSON.parse(localStorage.getItem(storeKey) || "{}") || {}; } catch (err) { return {}; }
    }
    function save(n, input) {
      try { localStorage.setItem(storeKey, JSON.stringify({ ...loadSaved(), [n]: input })); } catch (err) { /* kept for this visit only */ }
    }

    // The row the model gives this exercise's query in its layer and head, from the page's numbers.
    function rowOf(e) {
      const a = M.headArrays(values, meta, e.layer, e.head);
      const row = M.attentionRow(a.q, a.k, meta.tokens, meta.head_dim, e.query);
      return { row, bound: M.weightErrorBound(a.q, a.k, meta.tokens, meta.head_dim, e.query, row.weight) };
    }
    const arithmeticTable = (lines) =>
      `<table class="arith">${lines.map(([n, v, why]) => `<tr><td>${n}</td><td class="num">${v}</td><td>${why}</td></tr>`).join("")}</table>`;

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
      } else if (e.kind === "weight" || e.kind === "scaled_score") {
        input = `<p><input class="ex-number" type="text" inputmode="decimal" autocomplete="off" size="12" ` +
          `aria-label="your answer to exercise ${e.n}"></p>`;
      } else if (e.kind === "choice") {
        input = `<div class="ex-options">${e.options.map((o, i) =>
          `<label><input type="radio" name="ex-${e.n}" value="${i + 1}"> ${escapeHtml(o)}</label>`).join("")}</div>`;
      }
      div.innerHTML = `<h3>${e.n}. ${escapeHtml(e.title)}</h3>${e.text.map((p) => `<p>${escapeHtml(p)}</p>`).join("")}` +
        input + `<p class="buttons"><button class="ex-check">Check</button></p>` +
        `<p class="ex-note" role="status" hidden></p><div class="ex-verdict" role="status" hidden></div>`;
      return div;
    }

    // The exercise's photo: the patch grid, the query outlined in blue, the
    // student's patches in pink; after the check, the map the row draws.
    function drawPhoto(entry) {
      const canvas = entry.div.querySelector(".ex-photo");
      if (!canvas || !page.photo.complete) return;
      const { e } = entry;
      const dpr = window.devicePixelRatio || 1;
      const css = canvas.clientWidth || 320;
      const weight = entry.checked ? rowOf(e).row.weight : new Float64Array(meta.tokens);
      drawMap(canvas, weight, { outline: false, size: css });
      const g = canvas.getContext("2d"), px = canvas.width, cell = px / meta.grid;
      g.strokeStyle = "rgba(255,255,255,0.25)"; g.lineWidth = 1;
      for (let i = 1; i < meta.grid; i++) {
        g.beginPath(); g.moveTo(i * cell, 0); g.lineTo(i * cell, px); g.moveTo(0, i * cell); g.lineTo(px, i * cell); g.stroke();
      }
      const box = (token, colour, fill) => {
        if (token < meta.prefix) return;
        const x = M.colOf(token, meta) * cell, y = M.rowOf(token, meta) * cell;
        if (fill) { g.fillStyle = fill; g.fillRect(x, y, cell, cell); }
        g.strokeStyle = colour; g.lineWidth = 2 * dpr; g.strokeRect(x + 1, y + 1, cell - 2, cell - 2);
      };
      const mine = e.kind === "top_key" ? (entry.picked >= 0 ? [entry.picked] : []) : [...entry.marked];
      for (const j of mine) box(j, "#ff5aa0", entry.checked ? null : "rgba(255,90,160,0.35)");
      if (entry.checked && e.kind === "top_key") for (const j of entry.checked.accepted) box(j, "#ffcc33", null);
      box(e.query, "#5ad1ff", null);
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

    // The student's answer as entered, or {error} for the note beside the exercise.
    function answerOf(entry) {
      const { e, div } = entry;
      if (e.kind === "top_key") return entry.picked >= 0 ? { value: entry.picked, shown: entry.picked } : { error: "Click a patch on the photo (or CLS) first." };
      if (e.kind === "predict_region") {
        if (!entry.marked.size) return { error: "Mark at least one patch on the photo first." };
        const marked = [...entry.marked].sort((a, b) => a - b);
        return { value: marked, shown: marked.join(" ") };
      }
      if (e.kind === "choice") {
        const on = div.querySelector("input[type=radio]:checked");
        return on ? { value: Number(on.value), shown: on.value } : { error: "Choose one of the options first." };
      }
      const parsed = M.parseAnswerNumber(div.querySelector(".ex-number").value, { percent: e.kind === "weight" });
      return parsed.error ? parsed : { value: parsed.value, shown: String(parsed.value) };
    }

    // The verdict with the right answer and how the model's numbers give it.
    function check(entry, restoring = false) {
      const { e, div } = entry;
      if (entry.checked) return;
      const answer = answerOf(entry);
      if (answer.error) { note(entry, answer.error); return; }
      note(entry, "");
      let correct = false, html = "", pageAnswer = "", key = -1;
      if (e.kind === "choice") {
        correct = answer.value === e.answer;
        pageAnswer = e.answer;
        html = `<p>The answer: ${e.answer}. ${escapeHtml(e.options[e.answer - 1])}</p>`;
      } else {
        const { row, bound } = rowOf(e);
        if (e.kind === "top_key") {
          const top = M.topKeys(row.scaled, bound.epsilon);
          entry.accepted = top.accepted;
          correct = top.accepted.includes(answer.value);
          key = top.top;
          pageAnswer = top.top;
          div.dataset.accepted = top.accepted.join(" ");
          html = `<p>Query ${tokenName(e.query)} weighs ${tokenName(top.top)} most: weight ${fmt(row.weight[top.top], 4)}, ` +
            `the largest of its ${meta.tokens} keys (outlined in yellow).` +
            (top.accepted.length > 1
              ? ` A near-tie: ${top.accepted.filter((j) => j !== top.top).map(tokenName).join(", ")} ` +
                `${top.accepted.length > 2 ? "are" : "is"} within the 16-bit rounding of this page's numbers ` +
                `(scaled scores within 2 × ${bound.epsilon.toExponential(1)}), so the model's own order could differ: either answer counts.`
              : "") + `</p>` + arithmeticTable(arithmeticLines(row, e.query, top.top, bound));
        } else if (e.kind === "weight" || e.kind === "scaled_score") {
          key = e.key;
          const truth = e.kind === "weight" ? row.weight[key] : row.scaled[key];
          correct = Math.abs(answer.value - truth) <= e.tolerance;
          pageAnswer = truth;
          html = `<p>The ${e.kind === "weight" ? "weight" : "scaled score"}: ${fmt(truth, 4)} ` +
            `(yours ${escapeHtml(answer.shown)}; within ±${e.tolerance} counts).</p>` +
            arithmeticTable(arithmeticLines(row, e.query, key, bound));
        } else if (e.kind === "predict_region") {
          const s = M.scorePrediction(row.weight, answer.value, meta);
          correct = s.ratio >= e.ratio;
          pageAnswer = s.ratio;
          const pct = (x) => (100 * x).toFixed(1) + "%";
          html = `<p>The ${s.marked} patches you marked (${pct(s.areaShare)} of the ${s.patches}) hold ${pct(s.weightOnMarked)} ` +
            `of the weight; an even spread of the patches' ${pct(s.weightOnPatches)} would put ${pct(s.evenSpread)} there: ` +
            `${s.ratio.toFixed(2)} times an even spread (${pct(s.weightOnMarked)} ÷ ${pct(s.evenSpread)}). Passing needs ${e.ratio} times. ` +
            `The photo now shows the map.</p>`;
        }
        if (!restoring) update({ layer: e.layer, head: e.head, mean: false, query: e.query, key });
      }
      entry.checked = { answer: answer.shown, correct, accepted: entry.accepted || [] };
      if (!restoring) save(e.n, e.kind === "weight" || e.kind === "scaled_score" ? div.querySelector(".ex-number").value : answer.value);
      div.dataset.answer = String(pageAnswer);
      div.dataset.verdict = correct ? "right" : "wrong";
      const verdict = div.querySelector(".ex-verdict");
      verdict.hidden = false;
      verdict.className = "ex-verdict " + (correct ? "right" : "wrong");
      verdict.innerHTML = `<p><b>${correct ? "Right." : "Not right."}</b></p>` + html +
        (key >= 0 ? `<p class="hint">The page now shows this query and key: “The arithmetic for one key” has the same steps.</p>` : "");
      for (const el of div.querySelectorAll("input, button")) el.disabled = true;
      drawPhoto(entry);
    }

    // Bound once, so the page holds no text a self-containment check reads as a CSS url fetch (tests/app/gui/lesson_page_test.py).
    const blobLink = URL.createObjectURL.bind(URL), dropBlobLink = URL.revokeObjectURL.bind(URL);
    function downloadAnswers() {
      const csv = M.answersCsv(entries.map(({ e, checked }) =>
        ({ exercise: e.n, answer: checked ? checked.answer : "", correct: checked ? (checked.correct ? "yes" : "no") : "" })));
      const link = $("answers-link");
      if (link.href) dropBlobLink(link.href);
      link.href = blobLink(new Blob([csv], { type: "text/csv" }));
      link.download = `answers-${data.photo.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9_-]+/g, "_")}.csv`;
      link.textContent = link.download;
      link.hidden = false;
      const done = entries.filter((x) => x.checked).length;
      $("answers-note").textContent = `${done} of ${entries.length} checked; unchecked exercises have an empty answer.`;
      link.click();
    }

    $("homework").hidden = false;
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
      else if (e.kind === "predict_region") entry.marked = new Set(input.map(Number));
      else if (e.kind === "choice") { const r = div.querySelector(`input[type=radio][value="${Number(input)}"]`); if (r) r.checked = true; }
      else div.querySelector(".ex-number").value = String(input);
      showPicked(entry);
      check(entry, true);
    }
    $("download-answers").addEventListener("click", downloadAnswers);
    window.addEventListener("resize", () => entries.forEach(drawPhoto));
    return { draw: () => entries.forEach(drawPhoto) };
  }
  return { start };
})();
