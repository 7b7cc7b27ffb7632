#version 330 core
// An attention (or score) map over the model's crop of the photo, the patch
// grid and the patch outlines. colormaps.glsl and map_colour.glsl are
// prepended at load time, and defines pick the program: BILINEAR_MAP smooths
// maps, MARKS draws the outlines (llvmpipe runs both sides of a branch on a
// uniform, so one program would pay for everything always). The outlines'
// program redraws only the few pixels around each marked cell.
in vec2 v_uv;
out vec4 frag_color;

uniform sampler2D u_photo_layer;  // photo_layer.frag's picture of this view at this viewport's size
uniform ivec2 u_viewport_origin;  // the viewport's corner: the layer's texel (0, 0)
uniform sampler2D u_values;       // grid x grid R32F; texel (col, row), row 0 = top
uniform sampler2D u_cells;        // nearest maps: each cell's map_colour (cells.frag), texel (col, row)
uniform bool u_has_values;
uniform int u_grid;
uniform vec4 u_view;              // the part of the photo shown, in photo uv: x0, y0, x1, y1
uniform vec4 u_crop;              // the model's square crop, in photo uv
uniform bool u_show_grid;
uniform float u_line_px;          // grid line width, pixels; outlines scale with it
uniform ivec2 u_selected;         // (row, col); negative = none
uniform ivec2 u_hover;
uniform ivec2 u_pinned;

float value_at(ivec2 cell) {
    cell = clamp(cell, ivec2(0), ivec2(u_grid - 1));
    return texelFetch(u_values, cell, 0).r;
}

// Interpolates between patch centres here rather than with GL_LINEAR so the
// result does not depend on the texture's filter state; beyond the outer
// centres the edge value holds.
float bilinear_value(vec2 pc) {
    vec2 p = pc - 0.5;
    ivec2 i = ivec2(floor(p));
    vec2 f = p - vec2(i);
    float top = mix(value_at(i), value_at(i + ivec2(1, 0)), f.x);
    float bottom = mix(value_at(i + ivec2(0, 1)), value_at(i + ivec2(1, 1)), f.x);
    return mix(top, bottom, f.y);
}

// The map's colour and opacity here. A nearest map's is its cell's, worked
// out once per cell: a colormap lookup per pixel cost llvmpipe as much as
// the rest of this shader.
vec4 map_colour_at(vec2 pc) {
#ifdef BILINEAR_MAP
    return map_colour(bilinear_value(pc));
#else
    return texelFetch(u_cells, clamp(ivec2(floor(pc)), ivec2(0), ivec2(u_grid - 1)), 0);
#endif
}

// Signed distance in pixels from the fragment to the border of a patch cell
// (negative inside); cell is (row, col).
float cell_distance(vec2 pc, ivec2 cell, vec2 px_per_patch) {
    vec2 lo = vec2(cell.y, cell.x);
    vec2 d = max(lo - pc, pc - (lo + 1.0)) * px_per_patch;
    return length(max(d, 0.0)) + min(max(d.x, d.y), 0.0);
}

// Coverage of the band a <= d <= b, antialiased over one pixel.
float band(float d, float a, float b) {
    return clamp(min(d - a, b - d) + 0.5, 0.0, 1.0);
}

// A coloured line on the cell border with dark edges, readable on any photo.
vec3 outline(vec3 col, vec2 pc, ivec2 cell, vec2 px_per_patch, float half_width, vec3 colour) {
    if (cell.x < 0 || cell.y < 0) return col;
    float d = cell_distance(pc, cell, px_per_patch);
    float edge = max(1.0, half_width * 0.5);
    col = mix(col, vec3(0.0), 0.85 * band(d, -half_width - edge, half_width + edge));
    return mix(col, colour, band(d, -half_width, half_width));
}

void main() {
    vec2 uv = mix(u_view.xy, u_view.zw, v_uv);
    vec2 pc = (uv - u_crop.xy) / (u_crop.zw - u_crop.xy) * float(u_grid);
    // Derivatives before any branch: pixels per patch along x and y.
    vec2 px_per_patch = 1.0 / max(fwidth(pc), vec2(1e-6));

    // The photo, dimmed outside the crop; the background beyond its edges (alpha says which).
    vec4 layer = texelFetch(u_photo_layer, ivec2(gl_FragCoord.xy) - u_viewport_origin, 0);
    vec3 col = layer.rgb;
    if (layer.a < 0.25) {
        frag_color = vec4(col, 1.0);
        return;
    }
    if (layer.a > 0.75) {  // in the crop
        if (u_has_values) {
            vec4 map = map_colour_at(pc);
            col = mix(col, map.rgb, map.a);
        }
        if (u_show_grid) {
            vec2 to_line = min(fract(pc), 1.0 - fract(pc)) * px_per_patch;
            float w = 0.5 * u_line_px;
            float line = max(band(to_line.x, -w, w), band(to_line.y, -w, w));
            col = mix(col, vec3(1.0), 0.3 * line);
        }
    }
#ifdef MARKS
    float w = max(0.5, u_line_px);
    col = outline(col, pc, u_pinned, px_per_patch, w, vec3(1.0, 0.62, 0.05));
    col = outline(col, pc, u_hover, px_per_patch, 0.5 * w, vec3(0.92));
    col = outline(col, pc, u_selected, px_per_patch, 1.5 * w, vec3(1.0));
#endif
    frag_color = vec4(col, 1.0);
}
