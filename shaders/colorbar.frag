#version 330 core
// A colour bar: the colormap from t = 0 to 1 along its length.
// colormaps.glsl is prepended at load time.
in vec2 v_uv;
out vec4 frag_color;

uniform int u_colormap;
uniform bool u_vertical;          // vertical bars run from 0 at the bottom to 1 at the top

void main() {
    float t = u_vertical ? 1.0 - v_uv.y : v_uv.x;
    frag_color = vec4(colormap(u_colormap, t), 1.0);
}
