#version 330 core
// One head's N x N attention weights as a picture: row = query, column = key,
// rows from the top. A square window of cells fills the viewport (zoom). The
// colour is log-scaled over 3 decades below the matrix's largest weight, as
// the overlay's log scale. Lines: where CLS and the registers end (amber), the
// selected query's row (accent blue). colormaps.glsl is prepended at load time.
in vec2 v_uv;
out vec4 frag_color;

uniform sampler2D u_values;   // N x N, R32F; texel (key, query)
uniform ivec3 u_window;       // first row, first column, cells a side
uniform int u_colormap;
uniform float u_top;          // the largest weight
uniform int u_prefix;         // tokens before the patches (CLS, distillation, registers)
uniform int u_selected;       // the selected query; -1 none
uniform float u_line_px;
uniform vec2 u_size;          // the viewport in pixels

const vec3 PREFIX_LINE = vec3(1.0, 0.84, 0.35);
const vec3 SELECTED_LINE = vec3(0.35, 0.65, 1.0);

void main() {
    int cells = u_window.z;
    ivec2 cell = min(ivec2(floor(v_uv * float(cells))), ivec2(cells - 1));
    int row = u_window.x + cell.y, col = u_window.y + cell.x;
    float w = texelFetch(u_values, ivec2(col, row), 0).r;
    float t = clamp(log(max(w, 1e-30) / u_top) / log(1000.0) + 1.0, 0.0, 1.0);
    vec3 c = colormap(u_colormap, t);

    vec2 px = v_uv * u_size;
    float cell_px = u_size.x / float(cells);
    float half_line = 0.5 * u_line_px;
    // The prefix tokens' band ends at column / row u_prefix.
    float edge_x = float(u_prefix - u_window.y) * cell_px, edge_y = float(u_prefix - u_window.x) * cell_px;
    if (u_prefix > u_window.y && u_prefix < u_window.y + cells && abs(px.x - edge_x) <= half_line) c = PREFIX_LINE;
    if (u_prefix > u_window.x && u_prefix < u_window.x + cells && abs(px.y - edge_y) <= half_line) c = PREFIX_LINE;
    // The selected query's row: a line above and below it.
    if (u_selected >= u_window.x && u_selected < u_window.x + cells) {
        float top = float(u_selected - u_window.x) * cell_px, bottom = top + cell_px;
        if (abs(px.y - top) <= u_line_px || abs(px.y - bottom) <= u_line_px) c = SELECTED_LINE;
    }
    frag_color = vec4(c, 1.0);
}
