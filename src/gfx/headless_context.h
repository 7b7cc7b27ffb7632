// An OpenGL 3.3 core context with no window and no display server (EGL on
// Mesa's surfaceless platform, or an EGL device), for the command-line export
// and tests. Rendering goes to framebuffer objects (see render_target.h).
#pragma once
#include <string>

namespace gfx {

class HeadlessContext {
public:
    // Creates the context and makes it current on this thread; throws
    // vit::Error saying what is missing when no EGL display or GL 3.3 is available.
    HeadlessContext();
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;
    // e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    std::string renderer() const;

private:
    void* display_ = nullptr;  // EGLDisplay and EGLContext, kept out of this header
    void* context_ = nullptr;
};

}  // namespace gfx
