#include "gfx/shader_program.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "vit/base/error.h"
#include "vit/base/install_dir.h"
#include "vit/base/read_file.h"

namespace gfx {
namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& name) {
    const fs::path path = fs::path(shader_dir()) / name;
    try {
        return vit::read_whole_file(path.string(), 1ULL << 20, "a shader");
    } catch (const vit::Error& e) {
        throw vit::Error(std::string(e.what()) + " (set VITSCOPE_SHADER_DIR to the shaders folder)");
    }
}

// Splits "#version ...\n" off the front so includes can follow it; the
// version this OpenGL takes in its place (gfx/gl.h).
std::pair<std::string, std::string> split_version(const std::string& src) {
    if (src.rfind("#version", 0) != 0) return {kGlslHeader, src};
    const size_t eol = src.find('\n');
    if (eol == std::string::npos) return {kGlslHeader, ""};
    return {kGlslHeader, src.substr(eol + 1)};
}

std::string info_log(GLuint object, bool is_program) {
    GLint len = 0;
    if (is_program) glGetProgramiv(object, GL_INFO_LOG_LENGTH, &len);
    else glGetShaderiv(object, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<size_t>(std::max(len, 1)), '\0');
    if (is_program) glGetProgramInfoLog(object, len, nullptr, log.data());
    else glGetShaderInfoLog(object, len, nullptr, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    for (char& c : log)
        if (c == '\n') c = ' ';  // errors are one line
    return log;
}

// parts[i] is GLSL source string i; `names` says which file each came from.
GLuint compile(GLenum type, const std::vector<std::string>& parts, const std::string& names) {
    GLuint shader = glCreateShader(type);
    std::vector<const char*> ptrs;
    for (const auto& p : parts) ptrs.push_back(p.c_str());
    glShaderSource(shader, static_cast<GLsizei>(ptrs.size()), ptrs.data(), nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        const std::string log = info_log(shader, false);
        glDeleteShader(shader);
        throw vit::Error("shader " + names + " does not compile: " + log);
    }
    return shader;
}

}  // namespace

std::string shader_dir() {
    if (const char* env = std::getenv("VITSCOPE_SHADER_DIR"); env && *env) return env;
        // share/vitscope/shaders once installed (never the source tree), else the build's source tree.
#ifdef VITSCOPE_SHADER_DIR
    return vit::resource_dir("shaders", VITSCOPE_SHADER_DIR);
#else
    return vit::resource_dir("shaders", "shaders");
#endif
}

GLuint build_program(const std::string& vert, const std::string& frag, const std::vector<std::string>& frag_includes,
                     const std::vector<std::string>& frag_defines) {
    const auto [vert_version, vert_body] = split_version(read_text(vert));
    const GLuint vs = compile(GL_VERTEX_SHADER, {vert_version, "#line 2 0\n" + vert_body}, vert);

    // "#line 1 N" makes the compiler's "N:line" messages point into file N of
    // the list reported with the error.
    auto [version, body] = split_version(read_text(frag));
    std::vector<std::string> parts = {version};
    for (const auto& name : frag_defines) parts.push_back("#define " + name + "\n");
    std::string names = frag + " (source 0";
    int index = 1;
    for (const auto& inc : frag_includes) {
        parts.push_back("#line 1 " + std::to_string(index) + "\n" + read_text(inc) + "\n");
        names += ", " + std::to_string(index++) + " = " + inc;
    }
    parts.push_back("#line 2 0\n" + body);
    names += ")";
    GLuint fs_ = 0;
    try {
        fs_ = compile(GL_FRAGMENT_SHADER, parts, names);
    } catch (...) {
        glDeleteShader(vs);
        throw;
    }

    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs_);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs_);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        const std::string log = info_log(program, true);
        glDeleteProgram(program);
        throw vit::Error("shaders " + vert + " + " + frag + " do not link: " + log);
    }
    return program;
}

}  // namespace gfx
