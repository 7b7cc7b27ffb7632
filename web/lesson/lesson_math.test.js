// Unit tests of the lesson page's numbers (node --test web/lesson/).
// Each checks against a value worked out here another way, or a property
// that must hold.
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const M = require("./lesson_math.js");

// A small deterministic generator (mulberry32), so failures repeat.
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function gaussian(rand) {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

// Rounding to half written from the definition (11 significant bits, ties to
// even, subnormal step 2^-24): the test's own, not the page's.
function roundToHalf(x) {
  if (x === 0) return 0;
  const exponent = Math.max(Math.floor(Math.log2(Math.abs(x))), -14);
  const step = 2 ** (exponent - 10);
  const n = x / step;
  let r = Math.round(n);
  if (Math.abs(n - Math.trunc(n)) === 0.5) r = 2 * Math.round(n / 2);  // ties to even
  return r * step;
}

test("half bits decode to the numbers IEEE 754 defines", () => {
  assert.strictEqual(M.halfToNumber(0x3c00), 1);
  assert.strictEqual(M.halfToNumber(0xc000), -2);
  assert.strictEqual(M.halfToNumber(0x7bff), 65504);
  assert.strictEqual(M.halfToNumber(0x0400), 2 ** -14);  // smallest normal
  assert.strictEqual(M.halfToNumber(0x0001), 2 ** -24);  // smallest subnormal
  assert.strictEqual(M.halfToNumber(0x03ff), 1023 * 2 ** -24);
  assert.strictEqual(M.halfToNumber(0x3555), 1365 / 4096);  // 0.333251953125
  assert.ok(Object.is(M.halfToNumber(0x8000), -0));
  assert.strictEqual(M.halfToNumber(0x7c00), Infinity);
  assert.ok(Number.isNaN(M.halfToNumber(0x7e00)));
});

test("decodeHalves reads little-endian pairs, natively or by table alike", () => {
  const bytes = new Uint8Array([0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x01, 0x00]);
  for (const native of [true, false])
    assert.deepStrictEqual([...M.decodeHalves(bytes, { native })], [1, -2, 65504, 2 ** -24]);
  const every = new Uint8Array(2 * 0x7c00);  // every finite positive half
  for (let b = 0; b < 0x7c00; b++) { every[2 * b] = b & 0xff; every[2 * b + 1] = b >> 8; }
  assert.deepStrictEqual(M.decodeHalves(every, { native: true }), M.decodeHalves(every, { native: false }));
});

test("base64 decodes to the bytes node's Buffer encodes", () => {
  const rand = random(7);
  for (const n of [0, 1, 2, 3, 4, 5, 100]) {
    const bytes = Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
    assert.deepStrictEqual(M.base64ToBytes(Buffer.from(bytes).toString("base64")), bytes);
  }
});

test("headArrays finds layer l head h's q, k, v in the export's layout", () => {
  const meta = { layers: 2, heads: 3, tokens: 4, head_dim: 2 };
  const values = Float32Array.from({ length: 2 * 3 * 3 * 4 * 2 }, (_, i) => i);
  const a = M.headArrays(values, meta, 1, 2);
  const block = 4 * 2, start = (1 * 3 + 2) * 3 * block;
  assert.strictEqual(a.q[0], start);
  assert.strictEqual(a.k[0], start + block);
  assert.strictEqual(a.v[block - 1], start + 3 * block - 1);
});

test("attention row: each step as written out, weights a distribution", () => {
  const rand = random(1);
  const tokens = 7, d = 4;
  const q = Float32Array.from({ length: tokens * d }, () => gaussian(rand) * 3);
  const k = Float32Array.from({ length: tokens * d }, () => gaussian(rand) * 3);
  const row = M.attentionRow(q, k, tokens, d, 2);
  let denominator = 0;
  const direct = [];
  for (let j = 0; j < tokens; j++) {
    let s = 0;
    for (let i = 0; i < d; i++) s += q[2 * d + i] * k[j * d + i];
    assert.ok(Math.abs(row.score[j] - s) < 1e-12);
    assert.ok(Math.abs(row.scaled[j] - s / 2) < 1e-12);  // √4 = 2
    direct.push(Math.exp(s / 2));  // no shift: small scores here
    denominator += Math.exp(s / 2);
  }
  let sum = 0;
  for (let j = 0; j < tokens; j++) {
    assert.ok(Math.abs(row.weight[j] - direct[j] / denominator) < 1e-12);
    assert.ok(Math.abs(row.expScore[j] / row.z - row.weight[j]) < 1e-15);
    // What the window shows: exp of the scaled score itself, Z = Σ of those (no shift).
    assert.ok(Math.abs(row.expScaled[j] - direct[j]) < 1e-12 * direct[j]);
    assert.ok(Math.abs(row.expScaled[j] / row.zScaled - row.weight[j]) < 1e-15);
    assert.ok(row.weight[j] >= 0);
    sum += row.weight[j];
  }
  assert.ok(Math.abs(sum - 1) < 1e-12);
  assert.ok(Math.abs(row.zScaled - denominator) < 1e-12 * denominator, "Z is Σ exp of the scaled scores, not of the shifted ones");
  assert.ok(row.expShift > 0 && Math.abs(row.zScaled - row.z) > 1e-6, "this case's shift changes Z, so the test tells them apart");
});

test("attention row survives scores too large for exp", () => {
  const q = Float32Array.from([1000, 0]), k = Float32Array.from([1000, 0, 999, 0]);
  const row = M.attentionRow(q, k, 2, 2, 0);
  // scaled scores 1e6/√2 and 999e3/√2: the second's weight is exp(-1000/√2), ~0.
  assert.ok(Math.abs(row.weight[0] - 1) < 1e-12 && row.weight[1] >= 0 && Number.isFinite(row.z));
});

test("mean of the heads averages entry by entry", () => {
  const m = M.meanWeights([Float64Array.from([1, 0, 0]), Float64Array.from([0, 0.5, 0.5])]);
  assert.deepStrictEqual([...m], [0.5, 0.25, 0.25]);
});

test("output Σ a·v and its largest contributions", () => {
  const v = Float32Array.from([3, 4, 0, 1, 6, 8]);  // ‖v‖ = 5, 1, 10
  const w = Float64Array.from([0.5, 0.3, 0.2]);
  const out = M.outputContributions(w, v, 3, 2, 2);
  assert.deepStrictEqual([...out.output], [0.5 * 3 + 0.2 * 6, 0.5 * 4 + 0.3 * 1 + 0.2 * 8]);
  // amounts 2.5, 0.3, 2.0 of 4.8: key 0 first, then key 2
  assert.deepStrictEqual(out.top.map((c) => c.token), [0, 2]);
  assert.ok(Math.abs(out.top[0].share - 2.5 / 4.8) < 1e-12);
  assert.ok(Math.abs(out.top[1].valueNorm - 10) < 1e-12);
});

test("the weight bound holds against exact q and k, and is not loose", () => {
  // q, k in float64 as "the app's exact values"; the page sees them rounded to half.
  const rand = random(3);
  const tokens = 197, d = 64;
  let worstRatio = 0, largestBound = 0;
  for (let trial = 0; trial < 20; trial++) {
    const spread = 0.5 + 3 * rand();  // ViT q and k entries are a few units at most
    const q = Float64Array.from({ length: tokens * d }, () => gaussian(rand) * spread);
    const k = Float64Array.from({ length: tokens * d }, () => gaussian(rand) * spread);
    if (trial === 0) q[5] = 1e-6;  // a subnormal half
    const qh = q.map(roundToHalf), kh = k.map(roundToHalf);
    const query = Math.floor(rand() * tokens);
    const exact = M.attentionRow(q, k, tokens, d, query).weight;
    const page = M.attentionRow(qh, kh, tokens, d, query).weight;
    const { bound } = M.weightErrorBound(qh, kh, tokens, d, query, page);
    for (let j = 0; j < tokens; j++) {
      const err = Math.abs(page[j] - exact[j]);
      assert.ok(err <= bound[j], `trial ${trial} key ${j}: error ${err} over bound ${bound[j]}`);
      if (bound[j] > 0) worstRatio = Math.max(worstRatio, err / bound[j]);
      largestBound = Math.max(largestBound, bound[j]);
    }
  }
  // A worst-case bound (every rounding error lined up) sits well above the
  // typical error, but within a factor of a few hundred of the worst seen.
  console.log(`largest error / bound ${worstRatio.toFixed(4)}, largest bound ${largestBound.toExponential(2)}`);
  assert.ok(worstRatio > 2e-3, `the bound is ${1 / worstRatio} times the largest error: too loose to mean much`);
});

test("roundToHalf agrees with the page's decoder on every half", () => {
  // Every finite half decodes to a value roundToHalf leaves where it is.
  for (let b = 0; b < 0x7c00; b += 7) {
    const x = M.halfToNumber(b);
    assert.strictEqual(roundToHalf(x), x);
  }
});

const meta = { layers: 12, heads: 3, tokens: 197, prefix: 1, grid: 14 };

test("URL fragment: the issue's example and a round trip", () => {
  assert.deepStrictEqual(M.parseFragment("#layer=3&head=2&patch=5,3", meta), { layer: 3, head: 2, query: 1 + 5 * 14 + 3 });
  assert.deepStrictEqual(M.parseFragment("#head=mean&query=cls", meta), { head: "mean", query: 0 });
  // Out of range or malformed: left out, and each named in `ignored` for the page's note.
  const bad = M.parseFragment("#layer=12&head=3&patch=14,0&query=197", meta);
  assert.deepStrictEqual(Object.keys(bad), ["ignored"]);
  assert.strictEqual(bad.ignored.length, 4);
  assert.ok(bad.ignored[0].includes("layer=12") && bad.ignored[0].includes("0–11"), bad.ignored[0]);
  assert.ok(bad.ignored[1].includes("head=3") && bad.ignored[2].includes("patch=14,0") && bad.ignored[3].includes("query=197"));
  assert.deepStrictEqual(M.parseFragment("#layer=1.5&patch=a,b", meta).ignored.length, 2);
  assert.deepStrictEqual(M.parseFragment("#layer=30&head=1", meta), { head: 1, ignored: ["“layer=30” (this model's layers are 0–11)"] });
  assert.deepStrictEqual(M.parseFragment("#layer=&colour=red", meta).ignored.length, 2);  // an empty value is not layer 0
  assert.deepStrictEqual(M.parseFragment("", meta), {});
  for (const s of [{ layer: 3, head: 2, query: 74 }, { layer: 0, head: "mean", query: 0 }]) {
    const back = M.parseFragment(M.formatFragment(s, meta), meta);
    assert.deepStrictEqual(back, s);
  }
});

test("URL fragment: links as mail clients and course sites write them (issue 44)", () => {
  const ear = 1 + 5 * 14 + 3;
  // A percent-encoded comma is the comma: the ear, and no note (was refused as “patch=5,3”).
  assert.deepStrictEqual(M.parseFragment("#layer=3&head=1&patch=5%2C3", meta), { layer: 3, head: 1, query: ear });
  assert.deepStrictEqual(M.parseFragment("#patch=5%2c3", meta), { query: ear });  // lower-case hex too
  // Names and values are each decoded; the note quotes the decoded text.
  assert.deepStrictEqual(M.parseFragment("#%6Cayer=%33&head=%6Dean&query=%63ls", meta), { layer: 3, head: "mean", query: 0 });
  assert.deepStrictEqual(M.parseFragment("#patch=5%2C3%2C1", meta).ignored, ["“patch=5,3,1” (a patch is row,col with each in 0–13)"]);
  // Decoded once: %252C is the text "%2C", not a comma.
  assert.deepStrictEqual(M.parseFragment("#patch=5%252C3", meta).ignored, ["“patch=5%2C3” (a patch is row,col with each in 0–13)"]);
  // Malformed %-sequences are refused, quoted as written and the sequence named.
  assert.deepStrictEqual(M.parseFragment("#patch=5%2G3&layer=3", meta),
    { layer: 3, ignored: ["“patch=5%2G3” (%2G is not a %-escape: % takes two hex digits)"] });
  assert.deepStrictEqual(M.parseFragment("#layer=3%", meta).ignored, ["“layer=3%” (% is not a %-escape: % takes two hex digits)"]);
  assert.deepStrictEqual(M.parseFragment("#la%yer=3", meta).ignored, ["“la%yer=3” (%ye is not a %-escape: % takes two hex digits)"]);
  assert.deepStrictEqual(M.parseFragment("#layer=%FF", meta).ignored, ["“layer=%FF” (%FF is not UTF-8 text)"]);
  assert.deepStrictEqual(M.parseFragment("#head=1%E2%82", meta).ignored, ["“head=1%E2%82” (%E2%82 is not UTF-8 text)"]);
  // A whole fragment encoded in one piece is one part with no "=": said so, not contradicted.
  assert.deepStrictEqual(M.parseFragment("#layer%3D3%26head%3D1", meta).ignored,
    ["“layer=3&head=1” (not name=value: its = is written %3D)"]);
});

test("URL fragment: trailing junk and signs are refused, each with why", () => {
  const refused = (fragment) => M.parseFragment(fragment, meta).ignored;
  // Was read as layer 3: the value is everything after the first "=".
  assert.deepStrictEqual(M.parseFragment("#layer=3=junk&head=1", meta),
    { head: 1, ignored: ["“layer=3=junk” (“3=junk” is not a whole number; this model's layers are 0–11)"] });
  assert.deepStrictEqual(refused("#layer=3x"), ["“layer=3x” (“3x” is not a whole number; this model's layers are 0–11)"]);
  assert.deepStrictEqual(refused("#head=1.5"), ["“head=1.5” (“1.5” is not a whole number; this model's heads are 0–2, or mean)"]);
  assert.deepStrictEqual(refused("#query=cls2"), ["“query=cls2” (“cls2” is not a whole number; a query is cls or a token 0–196)"]);
  assert.deepStrictEqual(refused("#layer="), ["“layer=” (no value; this model's layers are 0–11)"]);
  assert.deepStrictEqual(refused("#patch=5,3,1"), ["“patch=5,3,1” (a patch is row,col with each in 0–13)"]);
  for (const f of ["#layer=+3", "#layer=-0", "#layer=3.", "#layer=1e1", "#layer=0x3", "#layer=%203", "#layer=3%20",
                   "#patch=5,3x", "#patch=+5,3", "#patch=5, 3", "#patch=5%2C", "#head=mean=1", "#head=Mean", "#query=cls,1"])
    assert.strictEqual(refused(f)?.length, 1, f);
  // A fragment is not a form: "+" is a plus, never a space (so "layer=3+" is not "layer=3 " nor 3).
  assert.deepStrictEqual(refused("#layer=3+"), ["“layer=3+” (“3+” is not a whole number; this model's layers are 0–11)"]);
  // A name given twice: the last counts, the first is named (patch and query both choose the query).
  assert.deepStrictEqual(M.parseFragment("#layer=3&layer=4", meta),
    { layer: 4, ignored: ["“layer=3” (the link gives the layer again: “layer=4” counts)"] });
  assert.deepStrictEqual(M.parseFragment("#patch=5,3&query=cls", meta),
    { query: 0, ignored: ["“patch=5,3” (the link gives the query again: “query=cls” counts)"] });
  // Leading zeros are still the number; the note quotes at most 60 characters, whole ones.
  assert.deepStrictEqual(M.parseFragment("#layer=03&patch=05,003", meta), { layer: 3, query: 1 + 5 * 14 + 3 });
  const long = refused("#colour=" + "😀".repeat(100))[0];
  assert.ok(long.startsWith("“colour=" + "😀".repeat(53) + "…”") && !long.includes("\ufffd"), long);
});

test("arrows stop at the grid's edge; from CLS they land on the centre", () => {
  const corner = 1;  // patch (0, 0)
  assert.strictEqual(M.movedQuery(corner, -1, 0, meta), corner);
  assert.strictEqual(M.movedQuery(corner, 0, -1, meta), corner);
  assert.strictEqual(M.movedQuery(corner, 1, 1, meta), 1 + 14 + 1);
  assert.strictEqual(M.movedQuery(0, 0, 1, meta), 1 + 7 * 14 + 7);
  assert.strictEqual(M.rowOf(0, meta), -1);
  assert.strictEqual(M.colOf(1 + 5 * 14 + 3, meta), 3);
});

test("colour scale: the largest patch weight, CLS left out", () => {
  const w = new Float64Array(197);
  w[0] = 0.9; w[10] = 0.06; w[20] = 0.04;
  assert.strictEqual(M.patchMax(w, meta), 0.06);
});

test("viridis ends where the shaders' table ends", () => {
  assert.deepStrictEqual(M.viridis(0), [68, 1, 84]);       // 255 × (0.267, 0.005, 0.329)
  assert.deepStrictEqual(M.viridis(1), [253, 231, 37]);    // 255 × (0.993, 0.906, 0.144)
  assert.deepStrictEqual(M.viridis(-1), M.viridis(0));
  assert.deepStrictEqual(M.viridis(NaN), M.viridis(0));  // 0/0 from an empty row or a zero-width bar
});

// Homework (issue 35): the page's own checks.

test("topKeys: the argmax of the scaled scores over every key, CLS included", () => {
  assert.deepStrictEqual(M.topKeys(Float64Array.from([5, 1, 2, 4.5]), 0), { top: 0, accepted: [0] });
  assert.strictEqual(M.topKeys(Float64Array.from([1, 3, 7, 2]), 0.1).top, 2);
});

test("topKeys: a runner-up within 2ε of the top is a near-tie and accepted; one just beyond is not", () => {
  const eps = 0.01;
  const near = M.topKeys(Float64Array.from([0, 3, 3 - 2 * eps + 1e-12, 2.5]), eps);
  assert.strictEqual(near.top, 1);
  assert.deepStrictEqual(near.accepted, [1, 2]);
  const far = M.topKeys(Float64Array.from([0, 3, 3 - 2 * eps - 1e-9, 2.5]), eps);
  assert.deepStrictEqual(far.accepted, [1]);
});

test("topKeys on a real row: every accepted key's float32 order could differ, by the page's own bound", () => {
  // Random q and k rounded to half: the exact (double) row of the unrounded
  // vectors puts first a key the rounded row accepts.
  const rand = random(35);
  const tokens = 50, d = 16;
  let flipped = 0;  // trials where the page's plain argmax is not the exact one: the rule is what saves them
  for (let trial = 0; trial < 200; trial++) {
    const q = new Float64Array(tokens * d), k = new Float64Array(tokens * d);
    for (let i = 0; i < q.length; i++) { q[i] = gaussian(rand); k[i] = gaussian(rand); }
    // Keys 1 and 2 nearly equal and the query close to them: they are the top two, often within rounding.
    for (let c = 0; c < d; c++) {
      k[2 * d + c] = k[1 * d + c] + 1e-3 * gaussian(rand);
      q[c] = 0.8 * k[1 * d + c] + 0.1 * gaussian(rand);
    }
    const qh = q.map(roundToHalf), kh = k.map(roundToHalf);
    const exact = M.attentionRow(q, k, tokens, d, 0);
    const page = M.attentionRow(qh, kh, tokens, d, 0);
    const bound = M.weightErrorBound(qh, kh, tokens, d, 0, page.weight);
    const truth = M.topKeys(exact.scaled, 0).top;
    assert.ok(M.topKeys(page.scaled, bound.epsilon).accepted.includes(truth), `trial ${trial}`);
    if (M.topKeys(page.scaled, 0).top !== truth) flipped++;
  }
  assert.ok(flipped >= 10, `the rounding reordered the top two in only ${flipped} of 200 trials: no test of the rule`);
});

test("parseAnswerNumber: digits with a point or a decimal comma, a weight's percent; anything else a note", () => {
  assert.deepStrictEqual(M.parseAnswerNumber(" 0.25 "), { value: 0.25 });
  assert.deepStrictEqual(M.parseAnswerNumber(".5"), { value: 0.5 });
  assert.deepStrictEqual(M.parseAnswerNumber("0,125"), { value: 0.125 });
  assert.deepStrictEqual(M.parseAnswerNumber("−1.5e-2"), { value: -0.015 });
  assert.deepStrictEqual(M.parseAnswerNumber("25%", { percent: true }), { value: 0.25 });
  assert.ok(M.parseAnswerNumber("25%").error.includes("not a number"));
  assert.ok(M.parseAnswerNumber("about a half").error.includes("“about a half”"));
  assert.ok(M.parseAnswerNumber("1,000.5").error);
  assert.ok(M.parseAnswerNumber("").error);
});

test("scorePrediction: the window's ratio of the marked weight to an even spread", () => {
  const meta = { prefix: 1, grid: 2, tokens: 5 };
  const w = [0.2, 0.4, 0.2, 0.1, 0.1];  // CLS 0.2, patches 0.8
  const s = M.scorePrediction(w, [1, 1, 2], meta);  // repeats once
  assert.strictEqual(s.marked, 2);
  assert.ok(Math.abs(s.weightOnMarked - 0.6) < 1e-12);
  assert.ok(Math.abs(s.evenSpread - 0.5 * 0.8) < 1e-12);
  assert.ok(Math.abs(s.ratio - 1.5) < 1e-12);
  assert.strictEqual(M.scorePrediction(w, [0], meta).ratio, 0);  // CLS is not a patch to mark
});

test("answersCsv: the student, the variant, one row per exercise, quoted where a field needs it, one code", () => {
  const rows = [{ exercise: 1, kind: "top_key", answer: 88, correct: "yes" }, { exercise: 2, kind: "weight", answer: "", correct: "" },
                { exercise: 3, kind: "weight", answer: 'a "b", c', correct: "no" }];
  const code = M.handinCode("Ada, L.", "1", rows);
  assert.match(code, /^[0-9a-f]{8}$/);
  const csv = M.answersCsv("Ada, L.", "1", rows);
  assert.strictEqual(csv, "student,variant,exercise,kind,answer,correct,code\n" +
    `"Ada, L.",1,1,top_key,88,yes,${code}\n"Ada, L.",1,2,weight,,,${code}\n"Ada, L.",1,3,weight,"a ""b"", c",no,${code}\n`);
});

test("handinCode: FNV-1a over the UTF-8 text; any edit to a name, answer or verdict changes it", () => {
  // FNV-1a 32's published vectors: "" -> 811c9dc5, "a" -> e40c292c, "foobar" -> bf9cf968.
  assert.strictEqual(M.fnv1a(""), "811c9dc5");
  assert.strictEqual(M.fnv1a("a"), "e40c292c");
  assert.strictEqual(M.fnv1a("foobar"), "bf9cf968");
  const rows = [{ exercise: 1, answer: "0.25", correct: "yes" }];
  const code = M.handinCode("Zoë", "2", rows);
  assert.notStrictEqual(M.handinCode("Zoe", "2", rows), code);
  assert.notStrictEqual(M.handinCode("Zoë", "2", [{ ...rows[0], correct: "no" }]), code);
  assert.notStrictEqual(M.handinCode("Zoë", "2", [{ ...rows[0], answer: "0.26" }]), code);
  assert.notStrictEqual(M.handinCode("Zoë", "1", rows), code);
});

test("choiceCode and rightOptions: the right options found again from the code, and only from it", () => {
  const code = M.choiceCode(9, "What always holds", [2, 4]);
  assert.match(code, /^[0-9a-f]{8}$/);
  assert.deepStrictEqual(M.rightOptions(9, "What always holds", 5, 2, code), [2, 4]);
  assert.deepStrictEqual(M.rightOptions(9, "What always holds", 5, 1, code), []);  // no single option matches
  assert.notStrictEqual(M.choiceCode(9, "What always holds", [2, 3]), code);
});

test("formatToPrecision: decimals, and significant figures as the answer key prints them", () => {
  assert.strictEqual(M.formatToPrecision(0.028999999999999998, { digits: 3 }), "0.029");
  assert.strictEqual(M.formatToPrecision(1.25, { digits: 1 }), "1.3");
  assert.strictEqual(M.formatToPrecision(0.0019437, { significant: true, digits: 3 }), "0.00194");
  assert.strictEqual(M.formatToPrecision(0.0065960437, { significant: true, digits: 3 }), "0.00660");
  assert.strictEqual(M.formatToPrecision(1234.5678, { significant: true, digits: 3 }), "1230");
  assert.strictEqual(M.formatToPrecision(1.75e-5, { significant: true, digits: 3 }), "1.75e-05");
  assert.strictEqual(M.formatToPrecision(2.5e12, { significant: true, digits: 3 }), "2.50e+12");
});

test("meanTopKeys: the largest mean weight and every key its bounds cannot order against it", () => {
  const weight = [0.1, 0.4, 0.39, 0.11];
  const bound = [0.001, 0.006, 0.006, 0.001];  // 0.4 - 0.39 within 0.006 + 0.006
  assert.deepStrictEqual(M.meanTopKeys(weight, bound), { top: 1, accepted: [1, 2] });
  assert.deepStrictEqual(M.meanTopKeys(weight, [0, 0.001, 0.001, 0]), { top: 1, accepted: [1] });
});
