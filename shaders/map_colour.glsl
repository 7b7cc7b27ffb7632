// A map value's colour and opacity over the photo (prepended at load time,
// after colormaps.glsl): overlay.frag uses it per pixel for bilinear maps,
// cells.frag once per patch for nearest ones.

uniform int u_colormap;
uniform int u_normalization;      // 0 row max, 1 absolute, 2 log
uniform float u_row_max;          // largest value on the grid
uniform vec2 u_range;             // the normalised values the colormap spans
uniform float u_opacity;
uniform bool u_fade;              // opacity grows with the value (diverging: with its distance from 0)

// Value -> [0, 1] along the colormap.
float normalise(float v) {
    float n;
    if (u_normalization == 1) {
        n = v;
    } else if (u_normalization == 2) {
        // Three decades below the row maximum; anything smaller sits at the floor.
        if (u_row_max <= 0.0) return 0.0;
        float lo = u_row_max * 1e-3;
        n = (log(max(v, lo)) - log(lo)) / log(1e3);
    } else {
        n = u_row_max > 0.0 ? v / u_row_max : 0.0;
    }
    float span = u_range.y - u_range.x;
    return span != 0.0 ? (n - u_range.x) / span : 0.0;
}

// rgb: the colormap's colour for v; a: how much of it covers the photo.
vec4 map_colour(float v) {
    float t = normalise(v);
    float strength = u_colormap == CMAP_DIVERGING ? abs(2.0 * t - 1.0) : t;
    float alpha = u_fade ? u_opacity * clamp(strength, 0.0, 1.0) : u_opacity;
    return vec4(colormap(u_colormap, t), alpha);
}
