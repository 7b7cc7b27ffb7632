#include "gfx/headless_context.h"

#include <epoxy/egl.h>
#include "gfx/gl.h"

#include <cstdio>
#include <vector>

#include "vit/base/error.h"

namespace gfx {
namespace {

std::string egl_error() {
    char buf[32];
    std::snprintf(buf, sizeof buf, "EGL error 0x%04x", eglGetError());
    return buf;
}

// Displays to try, best first: Mesa's surfaceless platform needs neither X,
// Wayland nor a GPU; a device display covers other drivers; the default
// display is the last resort (it may want $DISPLAY).
std::vector<EGLDisplay> candidate_displays() {
    std::vector<EGLDisplay> out;
    const bool platforms = epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base");
    if (platforms && epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
        out.push_back(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr));
    if (platforms && epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_device") &&
        epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_device_enumeration")) {
        EGLDeviceEXT devices[8];
        EGLint n = 0;
        if (eglQueryDevicesEXT(8, devices, &n))
            for (EGLint i = 0; i < n; ++i)
                out.push_back(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr));
    }
    out.push_back(eglGetDisplay(EGL_DEFAULT_DISPLAY));
    return out;
}

// A GL 3.3 core context on display d, current with no surface; null on failure.
EGLContext try_context(EGLDisplay d, std::string& why) {
    EGLint major = 0, minor = 0;
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor)) {
        why = "no EGL display (" + egl_error() + ")";
        return EGL_NO_CONTEXT;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        why = "EGL has no desktop OpenGL";
        eglTerminate(d);
        return EGL_NO_CONTEXT;
    }
    // Surfaceless rendering needs no config; with a config the driver may
    // insist on one that matches a surface type we never use.
    const bool no_config = epoxy_has_egl_extension(d, "EGL_KHR_no_config_context") ||
                           epoxy_has_egl_extension(d, "EGL_MESA_configless_context");
    EGLConfig config = nullptr;
    if (!no_config) {
        const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
        EGLint n = 0;
        if (!eglChooseConfig(d, want, &config, 1, &n) || n < 1) {
            why = "no EGL config for OpenGL";
            eglTerminate(d);
            return EGL_NO_CONTEXT;
        }
    }
    const EGLint attrs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext c = eglCreateContext(d, config, EGL_NO_CONTEXT, attrs);
    if (c == EGL_NO_CONTEXT) {
        why = "cannot create an OpenGL 3.3 core context (" + egl_error() + ")";
        eglTerminate(d);
        return EGL_NO_CONTEXT;
    }
    if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        why = "cannot make the context current without a surface (" + egl_error() + ")";
        eglDestroyContext(d, c);
        eglTerminate(d);
        return EGL_NO_CONTEXT;
    }
    return c;
}

}  // namespace

HeadlessContext::HeadlessContext() {
    if (!epoxy_has_egl()) throw vit::Error("offscreen rendering needs libEGL (Debian: libegl1 and libegl-mesa0)");
    std::string why = "no EGL display";
    for (EGLDisplay d : candidate_displays()) {
        EGLContext c = try_context(d, why);
        if (c != EGL_NO_CONTEXT) {
            display_ = d;
            context_ = c;
            return;
        }
    }
    throw vit::Error("offscreen OpenGL unavailable: " + why + " (Mesa's EGL, Debian libegl-mesa0, provides it)");
}

HeadlessContext::~HeadlessContext() {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
}

std::string HeadlessContext::renderer() const {
    const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return r ? r : "unknown";
}

}  // namespace gfx
