#include "ui/widgets/fonts.h"

#include <filesystem>

namespace ui {
namespace {

const char* kDir = "/usr/share/fonts/truetype/dejavu/";

// Latin-1, Greek, punctuation (·, ‖, −), super/subscripts (ⁱ ₖ ᵢ ⱼ ᵀ), arrows,
// mathematical operators (√ Σ ⊙ ≈ ≠), geometric shapes (● ▶), check marks (✓ ✗).
const ImWchar kRanges[] = {
    0x0020, 0x00FF, 0x0370, 0x03FF, 0x1D40, 0x1D40, 0x1D62, 0x1D63, 0x2000, 0x206F, 0x2070, 0x209F, 0x2190,
    0x21FF, 0x2200, 0x22FF, 0x2300, 0x23FF, 0x25A0, 0x25FF, 0x2713, 0x2717, 0x2C7C, 0x2C7C, 0,
};

ImFont* add(const std::string& file, float size, float fb_scale) {
    const std::string path = kDir + file;
    if (!std::filesystem::exists(path)) return nullptr;
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 1;
    cfg.PixelSnapH = false;
    return ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), size * fb_scale, &cfg, kRanges);
}

}  // namespace

Fonts load_fonts(float size_px, float fb_scale, std::string& warning) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    Fonts f;
    f.regular = add("DejaVuSans.ttf", size_px, fb_scale);
    if (!f.regular) {
        warning = std::string("DejaVu Sans not found in ") + kDir + "; math symbols may not show";
        ImFontConfig cfg;
        cfg.SizePixels = 13.f * fb_scale * size_px / 15.f;
        f.regular = io.Fonts->AddFontDefault(&cfg);
    }
    f.bold = add("DejaVuSans-Bold.ttf", size_px, fb_scale);
    f.mono = add("DejaVuSansMono.ttf", size_px * 0.93f, fb_scale);
    f.title = add("DejaVuSans-Bold.ttf", size_px * 1.2f, fb_scale);
    // Classroom mode's 22.5 px type times 1.1: the card's sentences at 24 px and more, for the back row.
    f.large = add("DejaVuSans.ttf", size_px * 1.1f, fb_scale);
    f.large_bold = add("DejaVuSans-Bold.ttf", size_px * 1.1f, fb_scale);
    // The key sentence, all a class may read from the card: 22.5 px x 1.25 = 28 px, DejaVu Bold's capitals
    // 0.73 em of it, 20.5 px.
    f.key = add("DejaVuSans-Bold.ttf", size_px * 1.25f, fb_scale);
    // The live exercise's question and answer on a tall screen (1080 lines): 36 px in classroom mode.
    f.lecture = add("DejaVuSans.ttf", size_px * 1.6f, fb_scale);
    f.lecture_bold = add("DejaVuSans-Bold.ttf", size_px * 1.6f, fb_scale);
    if (!f.large) f.large = f.regular;
    if (!f.large_bold) f.large_bold = f.bold ? f.bold : f.regular;
    if (!f.key) f.key = f.large_bold;
    if (!f.lecture) f.lecture = f.large;
    if (!f.lecture_bold) f.lecture_bold = f.large_bold;
    if (!f.bold) f.bold = f.regular;
    if (!f.mono) f.mono = f.regular;
    if (!f.title) f.title = f.bold;
    io.FontDefault = f.regular;
    // Rasterised at framebuffer density, laid out in window coordinates.
    io.FontGlobalScale = 1.f / fb_scale;
    return f;
}

}  // namespace ui
