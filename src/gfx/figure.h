// The exported figure: the photo with the map over the model's crop, the
// same map alone at full opacity, a colour bar with ticks and a caption,
// drawn with the OverlayRenderer so it matches the window pixel for pixel.
// The command line renders it in a HeadlessContext; the window calls
// render_figure from its own GL context.
#pragma once
#include <string>
#include <vector>

#include "gfx/overlay_renderer.h"
#include "gfx/png_writer.h"
#include "gfx/rgba_image.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"

namespace gfx {

struct FigureSpec {
    const vit::Image* photo = nullptr;             // required; not owned
    vit::CropRect crop;                            // the model's input square on the photo
    int grid = 0;                                  // patches per side
    std::vector<float> values;                     // grid * grid, row-major from the top-left patch
    Marks marks;                                   // selected = the query patch; pinned shown, hover not
    OverlayStyle style;                            // colormap, normalisation; opacity of the photo panel
    int size = 2048;                               // long side of the photo panel, pixels
    std::string title;                             // caption line 1, e.g. the model's name
    std::string subtitle;                          // line 2, e.g. attention_caption(...)
    std::string note;                              // line 3 (optional), e.g. the weight left on CLS
    std::string value_label = "attention weight";  // what the values are, for titles and the bar
};

struct PixelRect {
    int x = 0, y = 0, w = 0, h = 0;  // from the figure's top left
};

// Where everything sits; a function of the spec alone (no GL, no font).
struct FigureLayout {
    int width = 0, height = 0;
    PixelRect photo_panel;                                  // the whole photo, with the translucent overlay
    PixelRect map_panel;                                    // the crop alone, map at opacity 1
    PixelRect colorbar;                                     // t = 0 at the left edge to 1 at the right
    double crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;  // the crop inside photo_panel, pixels
    float unit = 1;                                         // size / 2048: scales text, margins and lines
};

struct Figure {
    RgbaImage image;
    FigureLayout layout;
    // For the PNG: Title, Description (the caption), Software, and
    // "vitscope:layout", a JSON object with the layout and the colour mapping
    // so a test or script can read values back off the picture.
    std::vector<PngText> metadata;
};

FigureLayout figure_layout(const FigureSpec& spec);

// Needs a current OpenGL 3.3 context; leaves its framebuffer binding,
// viewport and program as they were. Throws vit::Error (bad spec, font
// missing, beyond the GPU's size limit, shader errors).
Figure render_figure(const FigureSpec& spec);

// Renders and writes OUT.png (whole or not at all, under `rules`: see write_png).
void export_figure(const FigureSpec& spec, const std::string& path, const vit::OutputRules& rules);

// "layer 8 · head 1 · query patch r5 c7 (token 82)". head < 0 reads "mean of
// heads"; a query that is not a patch (row < 0) reads "query CLS" for token 0
// and "query token N" otherwise.
std::string attention_caption(int layer, int head, int query_token, int query_row, int query_col);

// The model as a figure names it: its folder's name, which says which
// checkpoint it is (e.g. ..._augreg_in21k_ft_in1k), more than the
// architecture name in its config (config_name, used when the folder has none).
std::string model_title(const std::string& model_dir, const std::string& config_name);

}  // namespace gfx
