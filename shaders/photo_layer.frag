#version 330 core
// The photo under a map (gfx::PhotoLayers): sampled from its mipmapped
// texture, dimmed outside the model's crop, the background beyond its edges.
// overlay.frag reads it one texel per pixel, for every map of this photo,
// view and size, and takes from alpha where the pixel is: 1 in the crop,
// 0.5 elsewhere on the photo, 0 beyond it (decided once, so the two shaders
// cannot disagree on a pixel whose centre lies on the crop's edge).
in vec2 v_uv;
out vec4 frag_color;

uniform sampler2D u_photo;
uniform vec2 u_photo_extent;     // the photo's share of its texture (gfx::PhotoTexture::u_max, v_max)
uniform vec4 u_view;              // the part of the photo shown, in photo uv: x0, y0, x1, y1
uniform vec4 u_crop;              // the model's square crop, in photo uv
uniform float u_dim;              // brightness outside the crop
uniform vec3 u_background;        // beyond the photo's edges

void main() {
    vec2 uv = mix(u_view.xy, u_view.zw, v_uv);
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) {
        frag_color = vec4(u_background, 0.0);
        return;
    }
    vec3 col = texture(u_photo, uv * u_photo_extent).rgb;
    vec2 t = (uv - u_crop.xy) / (u_crop.zw - u_crop.xy);
    bool in_crop = all(greaterThanEqual(t, vec2(0.0))) && all(lessThan(t, vec2(1.0)));
    frag_color = in_crop ? vec4(col, 1.0) : vec4(col * u_dim, 0.5);
}
