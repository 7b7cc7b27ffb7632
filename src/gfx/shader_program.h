// GLSL programs built from the files in shaders/, read at run time so a
// shader can be edited without rebuilding.
#pragma once
#include <string>
#include <vector>

#include "gfx/gl.h"

namespace gfx {

// Where the shaders are read from: $VITSCOPE_SHADER_DIR when set, else
// <executable dir>/../share/vitscope/shaders of an installed copy, else the
// source tree's shaders/ the build was configured with.
std::string shader_dir();

// Compiles and links shader_dir()/vert and shader_dir()/frag. Each name in
// frag_defines becomes a "#define NAME" and each file in frag_includes (e.g.
// "colormaps.glsl") is inserted after them, all after the fragment shader's
// #version line. Throws vit::Error with the compiler's log.
GLuint build_program(const std::string& vert, const std::string& frag,
                     const std::vector<std::string>& frag_includes = {},
                     const std::vector<std::string>& frag_defines = {});

// A uniform's location in program (-1 when the program has none by that name: setting it does nothing).
inline GLint loc(GLuint program, const char* name) { return glGetUniformLocation(program, name); }

}  // namespace gfx
