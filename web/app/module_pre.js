// Runs inside the WebAssembly module's scope before it starts (emcc
// --pre-js, web/app/web_app.cmake): puts the files the page fetched (the
// default model, or a model the user picked) into the module's file system,
// and keeps the settings folder in the browser's IndexedDB.
Module.preRun = Module.preRun || [];
Module.preRun.push(function() {
    for (const file of Module.vitscopeFiles || []) {
        FS.mkdirTree(file.path.substring(0, file.path.lastIndexOf('/')));
        FS.writeFile(file.path, file.data);
    }
    Module.vitscopeFiles = null;  // the bytes live in the file system now
    for (const [name, value] of Object.entries(Module.vitscopeEnv || {})) ENV[name] = value;
    const settings = '/home/web_user/.config/vitscope';
    FS.mkdirTree(settings);
    FS.mount(IDBFS, {}, settings);
    addRunDependency('vitscope-settings');
    FS.syncfs(true, function() { removeRunDependency('vitscope-settings'); });
});
// The page's hooks into the module: what the window's offer_download and
// settings need (src/app/gui/window_platform_web.cpp).
Module.vitscopeReadFile = function(path) { return FS.readFile(path); };
Module.vitscopeIsFolder = function(path) { return FS.isDir(FS.stat(path).mode); };
Module.vitscopeListFolder = function(
    path) { return FS.readdir(path).filter(function(n) { return n !== '.' && n !== '..'; }); };
Module.vitscopeSaveSettings = function() { FS.syncfs(false, function() {}); };
Module.vitscopeWriteFile = function(path, bytes) {
    FS.mkdirTree(path.substring(0, path.lastIndexOf('/')));
    FS.writeFile(path, bytes);
};
