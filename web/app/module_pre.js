// Runs inside the WebAssembly module's scope before it starts (emcc
// --pre-js, web/app/web_app.cmake): puts the files the page fetched (the
// default model, or a model the user picked) into the module's file system,
// and keeps the settings folder in the browser's IndexedDB. Written as
// emscripten 3.1.6's minifier reads JavaScript: var, no destructuring.
Module.preRun = Module.preRun || [];
Module.preRun.push(function() {
    var files = Module.vitscopeFiles || [];
    for (var i = 0; i < files.length; ++i) {
        FS.mkdirTree(files[i].path.substring(0, files[i].path.lastIndexOf('/')));
        FS.writeFile(files[i].path, files[i].data);
    }
    Module.vitscopeFiles = null;  // the bytes live in the file system now
    // The page's settings as the explorer's environment (a mirror for File > Get a model…).
    var env = Module.vitscopeEnv || {};
    for (var name in env) ENV[name] = env[name];
    var settings = '/home/web_user/.config/vitscope';
    FS.mkdirTree(settings);
    FS.mount(IDBFS, {}, settings);
    addRunDependency('vitscope-settings');
    FS.syncfs(true, function() { removeRunDependency('vitscope-settings'); });
});
// What the page calls (web/app/vitscope_page.js).
Module.vitscopeReadFile = function(path) { return FS.readFile(path); };
Module.vitscopeListFolder = function(
    path) { return FS.readdir(path).filter(function(n) { return n !== '.' && n !== '..'; }); };
Module.vitscopeSaveSettings = function() { FS.syncfs(false, function() {}); };
Module.vitscopeWriteFile = function(path, bytes) {
    FS.mkdirTree(path.substring(0, path.lastIndexOf('/')));
    FS.writeFile(path, bytes);
};
