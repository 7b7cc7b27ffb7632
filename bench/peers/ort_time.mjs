// ONNX Runtime (CPU, onnxruntime-node) timing one ViT forward pass, as a
// benchmark peer for vitscope: bench/peers/compare_peers.py runs it in turns
// with vitscope's benchmark binary and PyTorch.
//
//   node bench/peers/ort_time.mjs MODEL.onnx --input X.f32 [--threads 2]
//        [--warmup 5] [--runs 20] [--logits-out LOGITS.f32] [--profile PREFIX]
//
// X.f32: the model input as raw little-endian float32, NCHW, batch 1, its side
// taken from the model's input shape (or --size). Without --input the input is
// seeded uniform noise in [-1, 1) (--seed). Prints one JSON object:
// {median_ms, runs: [ms, ...], median_cpu_ms, logits_head: [first 10 logits], ...}; with
// --logits-out all logits are written as raw float32 too. With --profile,
// ONNX Runtime's own profiler (enableProfiling) writes PREFIX_<date>.json, a
// Chrome trace of every node of every run; bench/peers/ort_profile.py sums it
// per operator.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    input: { type: 'string' },
    size: { type: 'string' },
    seed: { type: 'string', default: '0' },
    threads: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '5' },
    runs: { type: 'string', default: '20' },
    'logits-out': { type: 'string' },
    profile: { type: 'string' },
  },
});
if (positionals.length !== 1) {
  console.error('usage: node ort_time.mjs MODEL.onnx [--input X.f32] [--threads N] [--warmup W] [--runs R] [--logits-out F]');
  process.exit(2);
}
const int = (name) => {
  const v = Number.parseInt(opt[name], 10);
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} expects a whole number, got '${opt[name]}'`);
  return v;
};
const threads = int('threads'), warmup = int('warmup'), runs = int('runs');

const options = {
  executionProviders: ['cpu'],
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};
if (opt.profile) Object.assign(options, { enableProfiling: true, profileFilePrefix: opt.profile });
const tLoad = performance.now();
const session = await ort.InferenceSession.create(positionals[0], options);
const loadMs = performance.now() - tLoad;
const inputName = session.inputNames[0], outputName = session.outputNames[0];

// The side from the model's static input shape [1, 3, S, S] where the binding
// exposes it, else --size, else from the input file's length.
let size = opt.size ? Number.parseInt(opt.size, 10) : 0;
const meta = session.inputMetadata?.[0];
if (!size && meta?.shape && typeof meta.shape[3] === 'number') size = meta.shape[3];
let data;
if (opt.input) {
  const buf = readFileSync(opt.input);
  data = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  if (!size) size = Math.round(Math.sqrt(data.length / 3));
  if (data.length !== 3 * size * size)
    throw new Error(`${opt.input}: ${data.length} floats, not 3 x ${size} x ${size}`);
} else {
  if (!size) throw new Error('no --input: give --size');
  // mulberry32, seeded: the same noise on every run.
  let s = Number.parseInt(opt.seed, 10) >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  data = Float32Array.from({ length: 3 * size * size }, () => 2 * next() - 1);
}
const feeds = { [inputName]: new ort.Tensor('float32', data, [1, 3, size, size]) };

let out;
for (let i = 0; i < warmup; ++i) out = await session.run(feeds);
// Wall time per run, and the process's CPU time (all its threads, user +
// system): on a machine shared with other work the CPU time of one thread is
// the fairer figure, its wall time counts the time other processes ran.
const times = [], cpuTimes = [];
for (let i = 0; i < runs; ++i) {
  const c0 = process.cpuUsage(), t0 = performance.now();
  out = await session.run(feeds);
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpuTimes.push((c.user + c.system) / 1e3);
}
if (!out) out = await session.run(feeds);
if (opt.profile) session.endProfiling();  // writes the file (the binding does not return its name)
const logits = out[outputName].data;
if (opt['logits-out']) writeFileSync(opt['logits-out'], Buffer.from(logits.buffer, logits.byteOffset, logits.byteLength));

const medianOf = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null
    : sorted.length % 2 ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const median = medianOf(times);
console.log(JSON.stringify({
  model: positionals[0],
  ort_version: ort.env.versions?.node ?? ort.env.versions?.common ?? '?',
  node_version: process.version,
  options,
  size,
  load_ms: loadMs,
  warmup,
  median_ms: median,
  runs: times,
  median_cpu_ms: medianOf(cpuTimes),
  logits_head: Array.from(logits.subarray(0, 10)),
}));
