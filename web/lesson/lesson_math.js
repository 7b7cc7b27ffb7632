// The lesson page's numbers: decoding the 16-bit q, k and v the export
// carries, one query's attention row step by step (q·k, ÷√dₖ, exp, Z, the
// weight), the keys that dominate Σ a·v, and how far the weights can be from
// the app's float32 ones. No DOM here: node's test runner tests this file
// alone (web/lesson/lesson_math.test.js), and the page embeds it as is.
"use strict";

const LessonMath = (() => {
  // Half precision: round to nearest moves a value by at most 2^-11 of itself
  // (the unit roundoff u) in the normal range, and by at most half the
  // smallest subnormal, 2^-25, below 2^-14.
  const HALF_UNIT_ROUNDOFF = 2 ** -11;
  const HALF_SUBNORMAL_HALF_STEP = 2 ** -25;
  // float32's unit roundoff: the app computes q·k and the softmax in float32.
  const FLOAT_UNIT_ROUNDOFF = 2 ** -24;

  function base64ToBytes(text) {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);  // native where the browser has it
    if (typeof atob === "function") {
      const binary = atob(text);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return bytes;
    }
    return new Uint8Array(Buffer.from(text, "base64"));  // node without atob
  }

  // IEEE 754 binary16 bits -> the number they hold (exactly).
  function halfToNumber(bits) {
    const sign = bits & 0x8000 ? -1 : 1;
    const exponent = (bits >> 10) & 0x1f;
    const fraction = bits & 0x3ff;
    if (exponent === 0) return sign * fraction * 2 ** -24;  // zero and subnormals
    if (exponent === 31) return fraction ? NaN : sign * Infinity;
    return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }

  // Little-endian half floats -> Float32Array (every half is a float32).
  // Browsers with Float16Array convert natively; the table is the fallback.
  function decodeHalves(bytes, { native = true } = {}) {
    const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
    if (native && littleEndian && typeof Float16Array === "function" && bytes.byteOffset % 2 === 0)
      return Float32Array.from(new Float16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1));
    const table = new Float32Array(65536);  // one lookup per value: the decode is then a copy
    for (let b = 0; b < 65536; b++) table[b] = halfToNumber(b);
    const count = bytes.length >> 1;
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = table[bytes[2 * i] | (bytes[2 * i + 1] << 8)];
    return out;
  }

  // The export's layout (src/vit/forward/half_tokens.h): per layer, per head,
  // q then k then v, each tokens x headDim, token-major.
  function headArrays(values, meta, layer, head) {
    const block = meta.tokens * meta.head_dim;
    const start = (layer * meta.heads + head) * 3 * block;
    return {
      q: values.subarray(start, start + block),
      k: values.subarray(start + block, start + 2 * block),
      v: values.subarray(start + 2 * block, start + 3 * block),
    };
  }

  // Query i's row over every key j, in double precision:
  // score s_j = q_i·k_j, scaled s_j/√d, exp(scaled − max), Z = Σ exp, weight = exp/Z.
  // exp is taken after subtracting the row's largest scaled score (it cancels
  // in exp/Z and keeps exp from overflowing); `expShift` says by how much.
  function attentionRow(q, k, tokens, headDim, query) {
    const score = new Float64Array(tokens);
    const scaled = new Float64Array(tokens);
    const expScore = new Float64Array(tokens);
    const weight = new Float64Array(tokens);
    const sqrtDk = Math.sqrt(headDim);
    const qi = query * headDim;
    let max = -Infinity;
    for (let j = 0; j < tokens; j++) {
      let s = 0;
      const kj = j * headDim;
      for (let d = 0; d < headDim; d++) s += q[qi + d] * k[kj + d];
      score[j] = s;
      scaled[j] = s / sqrtDk;
      if (scaled[j] > max) max = scaled[j];
    }
    let z = 0;
    for (let j = 0; j < tokens; j++) {
      expScore[j] = Math.exp(scaled[j] - max);
      z += expScore[j];
    }
    for (let j = 0; j < tokens; j++) weight[j] = expScore[j] / z;
    // What the window shows: exp of the scaled score itself and Z = Σ exp of
    // the scaled scores (the shift by the row's maximum cancels in exp/Z).
    // Beyond double's range (scaled scores over ~709) these are Infinity.
    const shiftBack = Math.exp(max);
    const expScaled = new Float64Array(tokens);
    for (let j = 0; j < tokens; j++) expScaled[j] = expScore[j] * shiftBack;
    return { query, sqrtDk, score, scaled, expScore, expShift: max, z, expScaled, zScaled: z * shiftBack, weight };
  }

  // The mean of several rows' weights (the photo's "mean of the heads").
  function meanWeights(rows) {
    const out = new Float64Array(rows[0].length);
    for (const r of rows) for (let j = 0; j < out.length; j++) out[j] += r[j];
    for (let j = 0; j < out.length; j++) out[j] /= rows.length;
    return out;
  }

  // o_i = Σ_j a_j v_j, and the keys whose a_j·‖v_j‖ is largest, with their
  // share of Σ_j a_j·‖v_j‖ (as the app's math panel ranks them).
  function outputContributions(weight, v, tokens, headDim, count) {
    const output = new Float64Array(headDim);
    const all = [];
    let total = 0;
    for (let j = 0; j < tokens; j++) {
      let norm2 = 0;
      for (let d = 0; d < headDim; d++) {
        const x = v[j * headDim + d];
        output[d] += weight[j] * x;
        norm2 += x * x;
      }
      const valueNorm = Math.sqrt(norm2);
      const amount = Math.abs(weight[j]) * valueNorm;
      total += amount;
      all.push({ token: j, weight: weight[j], valueNorm, amount });
    }
    all.sort((a, b) => b.amount - a.amount || a.token - b.token);
    const top = all.slice(0, count).map((c) => ({ ...c, share: total > 0 ? c.amount / total : 0 }));
    let outNorm2 = 0;
    for (let d = 0; d < headDim; d++) outNorm2 += output[d] * output[d];
    return { output, outputNorm: Math.sqrt(outNorm2), top };
  }

  // How far each weight shown can be from the app's (`vitscope attention`):
  //  1. fp16 storage: |q̃ − q| ≤ u|q| + η (u = 2^-11, η = 2^-25), so |q| ≤ Q = (|q̃| + η)/(1 − u),
  //     and |q̃k̃ − qk| ≤ (uQ + η)K + |q̃|(uK + η); summed over d and ÷√d this bounds
  //     each scaled score's error.
  //  2. the app's float32 arithmetic on the scores: the dot product d·2^-24·Σ QK
  //     (Higham's γ_d), the scaling and the max subtracted before exp, 4·2^-24
  //     of |scaled| + max |scaled|. ε = the largest of these errors over the keys.
  //  3. softmax: if every scaled score moves by at most ε, each weight moves by
  //     a factor within [e^-2ε, e^2ε]: |ã_j − a_j| ≤ a_j(e^2ε − 1), with
  //     a_j ≤ ã_j e^2ε from the page's own ã_j.
  //  4. the app's float32 softmax itself: its exp within 4e-7 of exact
  //     (tests/vit/kernels/kernel_fast_test.cpp), Z a sum of N terms, one division:
  //     (N + 8)·2^-24 of a_j at most.
  // Returns ε and the per-key bounds.
  function weightErrorBound(q, k, tokens, headDim, query, pageWeight) {
    const u = HALF_UNIT_ROUNDOFF, eta = HALF_SUBNORMAL_HALF_STEP, u32 = FLOAT_UNIT_ROUNDOFF;
    const qi = query * headDim, sqrtDk = Math.sqrt(headDim);
    const scoreError = new Float64Array(tokens), scaled = new Float64Array(tokens);
    let maxAbsScaled = 0;
    for (let j = 0; j < tokens; j++) {
      let half = 0, magnitude = 0, s = 0;
      for (let d = 0; d < headDim; d++) {
        const qv = q[qi + d], kv = k[j * headDim + d];
        const qt = Math.abs(qv), kt = Math.abs(kv);
        const Q = (qt + eta) / (1 - u), K = (kt + eta) / (1 - u);
        half += (u * Q + eta) * K + qt * (u * K + eta);
        magnitude += Q * K;
        s += qv * kv;
      }
      scoreError[j] = (half + headDim * u32 * magnitude) / sqrtDk;
      scaled[j] = Math.abs(s / sqrtDk) + scoreError[j];
      maxAbsScaled = Math.max(maxAbsScaled, scaled[j]);
    }
    let epsilon = 0;
    for (let j = 0; j < tokens; j++) epsilon = Math.max(epsilon, scoreError[j] + 4 * u32 * (scaled[j] + maxAbsScaled));
    const grow = Math.exp(2 * epsilon);
    const floatSoftmax = (tokens + 8) * u32;
    const bound = new Float64Array(tokens);
    for (let j = 0; j < tokens; j++) {
      const appWeightMax = pageWeight[j] * grow * (1 + floatSoftmax);
      bound[j] = appWeightMax * (grow - 1) + appWeightMax * floatSoftmax;
    }
    return { epsilon, bound };
  }

  // A link's part as the note quotes it: at most `limit` characters (whole ones).
  function quotedPart(text, limit = 60) {
    const chars = Array.from(text);
    return `“${chars.length > limit ? chars.slice(0, limit).join("") + "…" : text}”`;
  }

  // decodeURIComponent, or the first %-sequence it cannot read, for the note:
  // "%2G" (% not followed by two hex digits) or "%FF" (bytes that are not UTF-8).
  function percentDecode(text) {
    try { return { text: decodeURIComponent(text) }; } catch (e) { /* find the sequence below */ }
    const loose = /%(?![0-9A-Fa-f]{2})/.exec(text);
    if (loose) return { error: `${text.slice(loose.index, loose.index + 3)} is not a %-escape: % takes two hex digits` };
    for (const run of text.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
      try { decodeURIComponent(run[0]); } catch (e) {
        const bytes = run[0].length > 24 ? run[0].slice(0, 24) + "…" : run[0];
        return { error: `${bytes} is not UTF-8 text` };
      }
    }
    return { error: "a %-escape that is not UTF-8 text" };  // not reached: decodeURIComponent fails on one of the above
  }

  // "#layer=3&head=2&patch=5,3" (head=mean for the mean of the heads;
  // query=cls or query=INDEX instead of patch) -> {layer, head, query}; only
  // what is given and in range. What was given and left out is listed in
  // `ignored` (["“layer=30” (this model's layers are 0–11)"]) for the page to
  // say so, quoted as decoded. Links arrive as mail clients and course sites
  // rewrite them, so each part splits at its first "=" and its name and value
  // are percent-decoded once: "patch=5%2C3" is patch 5,3. A fragment is not a
  // form, so "+" is a plus, not a space. The value must be the whole number
  // or pair: "layer=3=junk", "layer=3x", "layer=+3", "head=1.5" and
  // "patch=5,3,1" are refused, and so is a name given twice (the last counts).
  function parseFragment(fragment, meta) {
    const out = {};
    const ignored = [];
    const text = fragment.replace(/^#/, "");
    const isIndex = (value, n) => /^[0-9]+$/.test(value) && Number.isInteger(n);
    // Why a layer, head or query value was left out: its range, and first that
    // it is no number at all ("3=junk"), lest the note seem to refuse a 3.
    const why = (value, range) => (/^[0-9]+$/.test(value) ? range
      : `${value === "" ? "no value" : quotedPart(value, 20) + " is not a whole number"}; ${range}`);
    const setBy = {};  // out's field -> the part that set it, to name it if a later part sets it again
    const set = (field, v, shown) => {
      if (field in setBy) ignored.push(`${setBy[field]} (the link gives the ${field} again: ${shown} counts)`);
      setBy[field] = shown;
      out[field] = v;
    };
    for (const part of text.split("&")) {
      if (part === "") continue;
      const eq = part.indexOf("=");
      const name = percentDecode(eq < 0 ? part : part.slice(0, eq));
      const value = eq < 0 ? { text: undefined } : percentDecode(part.slice(eq + 1));
      const malformed = name.error || value.error;
      if (malformed) { ignored.push(`${quotedPart(part)} (${malformed})`); continue; }
      if (eq < 0) {
        ignored.push(`${quotedPart(name.text)} (not name=value${name.text.includes("=") ? ": its = is written %3D" : ""})`);
        continue;
      }
      const shown = quotedPart(`${name.text}=${value.text}`);
      const v = value.text;
      const n = Number(v);
      if (name.text === "layer") {
        if (isIndex(v, n) && n < meta.layers) set("layer", n, shown);
        else ignored.push(`${shown} (${why(v, `this model's layers are 0–${meta.layers - 1}`)})`);
      } else if (name.text === "head") {
        if (v === "mean") set("head", "mean", shown);
        else if (isIndex(v, n) && n < meta.heads) set("head", n, shown);
        else ignored.push(`${shown} (${why(v, `this model's heads are 0–${meta.heads - 1}, or mean`)})`);
      } else if (name.text === "patch") {
        const rc = v.split(",");
        const [r, c] = rc.map(Number);
        if (rc.length === 2 && isIndex(rc[0], r) && isIndex(rc[1], c) && r < meta.grid && c < meta.grid)
          set("query", meta.prefix + r * meta.grid + c, shown);
        else ignored.push(`${shown} (a patch is row,col with each in 0–${meta.grid - 1})`);
      } else if (name.text === "query") {
        if (v === "cls") set("query", 0, shown);
        else if (isIndex(v, n) && n < meta.tokens) set("query", n, shown);
        else ignored.push(`${shown} (${why(v, `a query is cls or a token 0–${meta.tokens - 1}`)})`);
      } else {
        ignored.push(`${shown} (not layer, head, patch or query)`);
      }
    }
    if (ignored.length) out.ignored = ignored;
    return out;
  }

  function formatFragment(state, meta) {
    const parts = [`layer=${state.layer}`, `head=${state.head}`];
    if (state.query >= meta.prefix) {
      const p = state.query - meta.prefix;
      parts.push(`patch=${Math.floor(p / meta.grid)},${p % meta.grid}`);
    } else {
      parts.push(state.query === 0 ? "query=cls" : `query=${state.query}`);
    }
    return "#" + parts.join("&");
  }

  function rowOf(token, meta) { return token >= meta.prefix ? Math.floor((token - meta.prefix) / meta.grid) : -1; }
  function colOf(token, meta) { return token >= meta.prefix ? (token - meta.prefix) % meta.grid : -1; }

  // Arrow keys: one patch in the direction, stopping at the edge; from CLS or
  // a register, onto the centre patch (as the app does).
  function movedQuery(query, dRow, dCol, meta) {
    const centre = Math.floor(meta.grid / 2);
    if (query < meta.prefix) return meta.prefix + centre * meta.grid + centre;
    const r = Math.min(meta.grid - 1, Math.max(0, rowOf(query, meta) + dRow));
    const c = Math.min(meta.grid - 1, Math.max(0, colOf(query, meta) + dCol));
    return meta.prefix + r * meta.grid + c;
  }

  // The largest weight among the patch keys: the top of the colour scale
  // (the app's "relative" scale), so CLS's share does not wash out the map.
  function patchMax(weight, meta) {
    let m = 0;
    for (let j = meta.prefix; j < meta.tokens; j++) if (weight[j] > m) m = weight[j];
    return m;
  }

  // viridis as the app's shaders draw it (shaders/colormaps.glsl): 17 knots, linear between.
  const VIRIDIS = [
    [0.267, 0.005, 0.329], [0.282, 0.095, 0.417], [0.279, 0.175, 0.483], [0.259, 0.252, 0.525],
    [0.230, 0.322, 0.546], [0.199, 0.388, 0.555], [0.173, 0.449, 0.558], [0.149, 0.508, 0.557],
    [0.128, 0.567, 0.551], [0.121, 0.626, 0.533], [0.158, 0.684, 0.502], [0.246, 0.739, 0.452],
    [0.369, 0.789, 0.383], [0.516, 0.831, 0.294], [0.678, 0.864, 0.190], [0.846, 0.887, 0.100],
    [0.993, 0.906, 0.144],
  ];
  function viridis(t) {
    const x = (Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0) * (VIRIDIS.length - 1);
    const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
    const f = x - i;
    return VIRIDIS[i].map((a, c) => Math.round(255 * (a + (VIRIDIS[i + 1][c] - a) * f)));
  }

  // Homework (issue 35): the checks the page makes from its own numbers.

  // top_key's answer from the page's row: the key with the largest scaled
  // score (every key, CLS too), and every key the model's own float32 row
  // could put first. The page's scaled scores are each within ε of the app's
  // (weightErrorBound), so a key whose scaled score is within 2ε of the top's
  // could be first there: a near-tie, and either is accepted.
  function topKeys(scaled, epsilon) {
    let top = 0;
    for (let j = 1; j < scaled.length; j++) if (scaled[j] > scaled[top]) top = j;
    const accepted = [];
    for (let j = 0; j < scaled.length; j++) if (scaled[top] - scaled[j] <= 2 * epsilon) accepted.push(j);
    accepted.sort((a, b) => scaled[b] - scaled[a] || a - b);
    return { top, accepted };
  }

  // top_key on the mean of the heads (map=mean): the key with the largest mean
  // weight, and every key whose mean weight is within its bound plus the
  // top's (each the mean of the heads' weightErrorBound) of the top's: the
  // model's float32 mean could put it first. As src/session/homework/page_rows.cpp.
  function meanTopKeys(weight, bound) {
    let top = 0;
    for (let j = 1; j < weight.length; j++) if (weight[j] > weight[top]) top = j;
    const accepted = [];
    for (let j = 0; j < weight.length; j++) if (weight[top] - weight[j] <= bound[top] + bound[j]) accepted.push(j);
    accepted.sort((a, b) => weight[b] - weight[a] || a - b);
    return { top, accepted };
  }

  // A number to the precision a question asks for ({significant, digits}, as
  // the answer key prints it: session/homework/exercises.cpp format_to_precision):
  // 3 decimals "0.029", 3 significant figures "0.00660", "1230", "1.75e-05".
  function formatToPrecision(x, { significant = false, digits = 3 } = {}) {
    if (!Number.isFinite(x)) return String(x);
    if (!significant) return x.toFixed(digits);
    const a = Math.abs(x);
    if (a >= 10 ** digits && a < 1e9) {
      const step = 10 ** (Math.floor(Math.log10(a)) + 1 - digits);
      return (Math.round(x / step) * step).toFixed(0);
    }
    if (a !== 0 && (a < 1e-4 || a >= 1e9)) return x.toExponential(digits - 1).replace(/e([+-])(\d)$/, (m, sign, d) => `e${sign}0${d}`);
    return x.toPrecision(digits);  // keeps the trailing zeros the figures ask for: 0.00660
  }

  // A typed number: "0.25", ".25", "-1.5e-2", "0,25" (a decimal comma), and
  // for a weight "25%" (0.25). Anything else is {error}, a sentence for the
  // note beside the exercise; the text itself is left as typed.
  function parseAnswerNumber(text, { percent = false } = {}) {
    let t = String(text).trim().replace(/\u2212/g, "-");
    if (t === "") return { error: "Type a number first." };
    let scale = 1;
    if (percent && t.endsWith("%")) { t = t.slice(0, -1).trim(); scale = 0.01; }
    if (/^[+-]?[0-9]*,[0-9]+$/.test(t)) t = t.replace(",", ".");
    if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(t))
      return { error: `“${String(text).trim().slice(0, 40)}” is not a number: type it as digits with a decimal point, like 0.123` +
        (percent ? " (or 12.3%)" : "") + "." };
    return { value: Number(t) * scale };
  }

  // The window's predict-then-reveal score (src/vit/analysis/prediction.h):
  // the weight on the marked patches against an even spread of the patches'
  // weight over them. `marked`: patch tokens; repeats count once.
  function scorePrediction(weight, marked, meta) {
    const set = new Set(marked.filter((j) => j >= meta.prefix && j < meta.tokens));
    const patches = meta.grid * meta.grid;
    let onMarked = 0, onPatches = 0;
    for (let j = meta.prefix; j < meta.tokens; j++) {
      onPatches += weight[j];
      if (set.has(j)) onMarked += weight[j];
    }
    const areaShare = set.size / patches;
    const evenSpread = areaShare * onPatches;
    return { marked: set.size, patches, areaShare, weightOnMarked: onMarked, weightOnPatches: onPatches, evenSpread,
             ratio: evenSpread > 0 ? onMarked / evenSpread : 0 };
  }

  // FNV-1a, 32 bits, over the UTF-8 bytes of text: 8 hex digits.
  function fnv1a(text) {
    let h = 0x811c9dc5;
    for (const b of new TextEncoder().encode(text)) {
      h ^= b;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, "0");
  }

  // The hand-in's verification code: a hash of the student's name, the
  // page's variant and every row's exercise, answer and verdict, so an answer
  // or a verdict edited afterwards (in a spreadsheet) no longer matches it.
  // `vitscope exercises --grade` recomputes it (src/session/homework/handin.cpp).
  // It catches edits, not a forger who reads this function.
  function handinCode(student, variant, rows) {
    let text = `vitscope hand-in 1\n${student}\n${variant}`;
    for (const r of rows) text += `\n${r.exercise}\t${r.answer}\t${r.correct}`;
    return fnv1a(text);
  }

  // A choice's right options as the page holds them (src/session/homework/handin.cpp choice_code):
  // `options` ascending. rightOptions finds them again from the code, after Check, by trying every
  // choice of `count` of the `total` options.
  function choiceCode(exercise, title, options) {
    return fnv1a(`vitscope choice 1\n${exercise}\n${title}\n${options.join(" ")}`);
  }
  function rightOptions(exercise, title, total, count, code) {
    const pick = (from, left) => {
      if (left === 0) return [[]];
      const out = [];
      for (let o = from; o <= total - left + 1; o++) for (const rest of pick(o + 1, left - 1)) out.push([o, ...rest]);
      return out;
    };
    return pick(1, count).find((c) => choiceCode(exercise, title, c) === code) || [];
  }

  // The CSV a student hands in: student,variant,exercise,kind,answer,correct,code
  // (answer: a number as typed, a key's token, marked patches' tokens, chosen
  // options; correct: the page's verdict, yes, no, or empty when not answered;
  // code: handinCode, the same on every row). Fields with a comma, quote or
  // line break quoted.
  function answersCsv(student, variant, rows) {
    const field = (x) => {
      const s = x === undefined || x === null ? "" : String(x);
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const code = handinCode(student, variant, rows);
    return ["student,variant,exercise,kind,answer,correct,code",
      ...rows.map((r) => [student, variant, r.exercise, r.kind, r.answer, r.correct, code].map(field).join(","))]
      .join("\n") + "\n";
  }

  return {
    HALF_UNIT_ROUNDOFF, base64ToBytes, halfToNumber, decodeHalves, headArrays, attentionRow, meanWeights,
    outputContributions, weightErrorBound, parseFragment, formatFragment, rowOf, colOf, movedQuery, patchMax, viridis,
    topKeys, meanTopKeys, formatToPrecision, parseAnswerNumber, scorePrediction, fnv1a, handinCode, answersCsv,
    choiceCode, rightOptions,
  };
})();

if (typeof module !== "undefined") module.exports = LessonMath;
