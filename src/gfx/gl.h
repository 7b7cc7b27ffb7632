// OpenGL for every file that draws: on the desktop OpenGL 3.3 core through
// libepoxy; in the browser build OpenGL ES 3.0 (WebGL 2), emscripten's.
// The two differ in the shaders' first lines (shader_program.cpp) and in
// nothing the code calls.
#pragma once
#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#include <epoxy/gl.h>
#endif

namespace gfx {

// The version line of this OpenGL's shading language (the shaders are written
// as GLSL 3.30; GLSL ES 3.00 takes them as they are), and what every shader
// then starts with: for GLSL ES the precisions it asks for.
#if defined(__EMSCRIPTEN__)
inline constexpr const char* kGlslVersion = "#version 300 es";
inline constexpr const char* kGlslHeader =
    "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n";
#else
inline constexpr const char* kGlslVersion = "#version 330 core";
inline constexpr const char* kGlslHeader = "#version 330 core\n";
#endif

}  // namespace gfx
