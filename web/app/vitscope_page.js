// The browser build's page (docs/browser.md): picks the threaded build when
// the page is cross-origin isolated (COOP/COEP: SharedArrayBuffer), else the
// single-thread one and says so once; fetches the default model once with
// progress (kept in the browser's cache storage); starts the explorer on the
// canvas; opens photos and models the user picks; hands the files the
// explorer saves to the browser as downloads.
'use strict';

const MODEL_NAME = 'vit_tiny_patch16_224.augreg_in21k_ft_in1k';
const MODEL_FILES = ['config.json', 'model.safetensors'];
const HOME = '/home/web_user';
const USER_MODELS = HOME + '/.local/share/vitscope/models';
const CACHE_NAME = 'vitscope-models-v1';
const BAR_HEIGHT = 31;
const params = new URLSearchParams(location.search);

const $ = (id) => document.getElementById(id);
function notice(text, isError) {
    $('notice').textContent = text;
    $('notice').className = isError ? 'error' : '';
    if (isError) console.warn('vitscope: ' + text);
}
function loading(text, fraction) {
    $('loading-text').textContent = text;
    if (fraction !== undefined) $('loading-progress').value = fraction;
}

// One file's bytes, from the cache storage when it has them, else from the
// server (reported to onBytes as they arrive) and then kept there.
async function fetchKept(url, onBytes) {
    const cache = self.caches ? await caches.open(CACHE_NAME).catch(() => null) : null;
    const kept = cache ? await cache.match(url) : null;
    if (kept) {
        const bytes = new Uint8Array(await kept.arrayBuffer());
        onBytes(bytes.length, bytes.length);
        return {bytes, cached: true};
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ': ' + response.status + ' ' + response.statusText);
    const total = Number(response.headers.get('Content-Length')) || 0;
    const reader = response.body.getReader();
    const parts = [];
    let got = 0;
    for (;;) {
        const {done, value} = await reader.read();
        if (done) break;
        parts.push(value);
        got += value.length;
        onBytes(got, total);
    }
    const bytes = new Uint8Array(got);
    let at = 0;
    for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
    }
    if (cache)
        await cache.put(url, new Response(bytes, {headers: {'Content-Type': 'application/octet-stream'}}))
            .catch(() => {});
    return {bytes, cached: false};
}

async function fetchDefaultModel() {
    const files = [];
    const sizes = MODEL_FILES.map(() => [0, 0]);
    let cached = true;
    for (let i = 0; i < MODEL_FILES.length; ++i) {
        const url = 'models/' + MODEL_NAME + '/' + MODEL_FILES[i];
        const got = await fetchKept(url, (done, total) => {
            sizes[i] = [done, total];
            const d = sizes.reduce((s, x) => s + x[0], 0), t = sizes.reduce((s, x) => s + x[1], 0);
            loading(
                'Fetching the model (' + (d / 1e6).toFixed(1) + (t ? ' of ' + (t / 1e6).toFixed(1) : '') + ' MB)…',
                t ? d / t : undefined);
        });
        cached = cached && got.cached;
        files.push({path: USER_MODELS + '/' + MODEL_NAME + '/' + MODEL_FILES[i], data: got.bytes});
    }
    return {files, cached};
}

function loadScript(src) {
    return new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = resolve;
        s.onerror = () => reject(new Error('cannot load ' + src));
        document.body.appendChild(s);
    });
}

// The canvas's size in CSS pixels, and in device pixels (its drawing buffer: sharp on Retina
// screens; the explorer scales its text by the ratio, window_platform_web.cpp).
function canvasSize() { return [Math.max(640, window.innerWidth), Math.max(480, window.innerHeight - BAR_HEIGHT)]; }
function devicePixels() {
    const [w, h] = canvasSize(), ratio = window.devicePixelRatio || 1;
    document.documentElement.style.setProperty('--canvas-width', w + 'px');
    document.documentElement.style.setProperty('--canvas-height', h + 'px');
    return [Math.round(w * ratio), Math.round(h * ratio)];
}

// The explorer's arguments: the canvas's size, and what the page's address
// adds (?args=..., space-separated: a test's --script or --state-file).
function explorerArguments() {
    const [w, h] = devicePixels();
    const args = ['--window-size', w + 'x' + h];
    if (params.get('args')) args.push(...params.get('args').split(' ').filter(Boolean));
    return args;
}

function download(path) {
    const name = path.substring(path.lastIndexOf('/') + 1);
    const bytes = Module.vitscopeReadFile(path);
    const url = URL.createObjectURL(new Blob([bytes]));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    window.vitscopeDownloads.push(path);
}

// A photo the user picked: into the module's file system, then opened as a drop would be.
async function openPhoto(file) {
    const path = HOME + '/photos/' + file.name;
    Module.vitscopeWriteFile(path, new Uint8Array(await file.arrayBuffer()));
    Module.ccall('vitscope_open_path', null, ['string'], [path]);
}

// A model the user picked: its files (config.json and the weights) into one folder, opened as a model.
async function openModel(files) {
    const folder = HOME + '/picked-models/' + Date.now();
    for (const f of files) Module.vitscopeWriteFile(folder + '/' + f.name, new Uint8Array(await f.arrayBuffer()));
    Module.ccall('vitscope_open_path', null, ['string'], [folder]);
}

async function start() {
    window.vitscopeDownloads = [];
    const threads = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
    $('threads').textContent = threads ? (navigator.hardwareConcurrency + ' threads') : 'one thread';
    // Without cross-origin isolation the threads' shared memory is not there: the single-thread
    // build runs if the folder has it, else the page says what the server must send.
    const program = threads ? 'vitscope.js' : 'vitscope-single.js';
    if (!threads) {
        // builds.json (web/app/web_app.cmake) names the programs the folder has.
        const builds = await fetch('builds.json').then((r) => r.json(), () => ({programs: []}));
        if (!builds.programs.includes(program))
            throw new Error('this page is served without cross-origin isolation (the COOP/COEP headers ' +
                            'docs/browser.md names), which vitscope needs: serve it with scripts/serve_web.sh');
        notice('This page is served without cross-origin isolation (COOP/COEP headers): vitscope runs on one ' +
               'thread, more slowly. scripts/serve_web.sh serves it with them.');
    }
    const t0 = performance.now();
    const model = await fetchDefaultModel();
    // Files a browser test puts in place before the explorer starts (tests/support/browser/explorer_browser.mjs).
    for (const f of window.vitscopeTestFiles || [])
        model.files.push({path: f.path, data: Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))});
    loading('Starting vitscope…');
    const canvas = $('canvas');
    const stderr = [];
    window.Module = {
        canvas,
        vitscopeFiles: model.files,
        // ?mirror=URL: File > Get a model… fetches from URL/FOLDER/FILE instead of the hub (a school's copy).
        vitscopeEnv: params.get('mirror') ? {VITSCOPE_MODEL_MIRROR: new URL(params.get('mirror'), location.href).href.replace(/\/+$/, '')} : {},
        print: (text) => console.log(text),
        printErr: (text) => {
            stderr.push(text);
            console.warn(text);
            if (text.startsWith('vitscope: error: ')) notice(text.substring(17), true);
        },
        vitscopeOfferDownload: download,
        onRuntimeInitialized: () => {
            $('loading').classList.add('hidden');
            Module.callMain(explorerArguments());
            canvas.focus();
        },
    };
    window.vitscopeStart = {t0, modelCached: model.cached, threads};
    await loadScript(program);
    window.addEventListener('resize', () => {
        const [w, h] = devicePixels();
        if (Module.setCanvasSize) Module.setCanvasSize(w, h);
    });
    $('open-photo').onclick = () => $('photo-input').click();
    $('photo-input').onchange = (e) => {
        if (e.target.files[0]) openPhoto(e.target.files[0]);
        e.target.value = '';
    };
    $('open-model').onclick = () => $('model-input').click();
    $('model-input').onchange = (e) => {
        if (e.target.files.length) openModel([...e.target.files]);
        e.target.value = '';
    };
    window.addEventListener('pagehide', () => Module.vitscopeSaveSettings && Module.vitscopeSaveSettings());
}

start().catch((e) => {
    loading('vitscope cannot start: ' + e.message);
    notice(e.message, true);
});
