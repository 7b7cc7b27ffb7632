#version 330 core
// One fragment per patch: a nearest-neighbour map's colour and opacity for
// each cell of the grid (a grid x grid float target), which overlay.frag then
// reads once per pixel instead of working out the colormap for every pixel
// of the cell. colormaps.glsl and map_colour.glsl are prepended at load time.
out vec4 frag_color;

uniform sampler2D u_values;       // grid x grid R32F; texel (col, row), as the target's pixels

void main() {
    frag_color = map_colour(texelFetch(u_values, ivec2(gl_FragCoord.xy), 0).r);
}
