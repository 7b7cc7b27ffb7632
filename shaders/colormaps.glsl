// Colormaps shared by every fragment shader (prepended at load time).
// viridis, magma (CC0) and turbo (Apache-2.0) are piecewise-linear tables of
// 17 knots sampled from the published 256-entry colour lists; at 8 bits they
// stay within about 8 levels of the originals, too little to see.
// The diverging map is our own: blue (negative) through white (0) to red.

const int CMAP_VIRIDIS = 0;
const int CMAP_MAGMA = 1;
const int CMAP_TURBO = 2;
const int CMAP_DIVERGING = 3;

const vec3 VIRIDIS[17] = vec3[17](
    vec3(0.267, 0.005, 0.329), vec3(0.282, 0.095, 0.417), vec3(0.279, 0.175, 0.483),
    vec3(0.259, 0.252, 0.525), vec3(0.230, 0.322, 0.546), vec3(0.199, 0.388, 0.555),
    vec3(0.173, 0.449, 0.558), vec3(0.149, 0.508, 0.557), vec3(0.128, 0.567, 0.551),
    vec3(0.121, 0.626, 0.533), vec3(0.158, 0.684, 0.502), vec3(0.246, 0.739, 0.452),
    vec3(0.369, 0.789, 0.383), vec3(0.516, 0.831, 0.294), vec3(0.678, 0.864, 0.190),
    vec3(0.846, 0.887, 0.100), vec3(0.993, 0.906, 0.144));

const vec3 MAGMA[17] = vec3[17](
    vec3(0.001, 0.000, 0.014), vec3(0.040, 0.031, 0.134), vec3(0.113, 0.065, 0.277),
    vec3(0.212, 0.062, 0.419), vec3(0.317, 0.072, 0.485), vec3(0.415, 0.110, 0.505),
    vec3(0.513, 0.148, 0.508), vec3(0.614, 0.182, 0.499), vec3(0.716, 0.215, 0.475),
    vec3(0.817, 0.256, 0.436), vec3(0.904, 0.320, 0.388), vec3(0.961, 0.418, 0.360),
    vec3(0.987, 0.536, 0.382), vec3(0.996, 0.654, 0.446), vec3(0.997, 0.770, 0.535),
    vec3(0.992, 0.884, 0.640), vec3(0.987, 0.991, 0.750));

const vec3 TURBO[17] = vec3[17](
    vec3(0.190, 0.072, 0.232), vec3(0.251, 0.252, 0.634), vec3(0.276, 0.421, 0.891),
    vec3(0.259, 0.580, 0.999), vec3(0.158, 0.736, 0.923), vec3(0.093, 0.866, 0.762),
    vec3(0.197, 0.949, 0.595), vec3(0.428, 0.994, 0.386), vec3(0.644, 0.990, 0.234),
    vec3(0.805, 0.925, 0.205), vec3(0.933, 0.812, 0.227), vec3(0.993, 0.674, 0.203),
    vec3(0.984, 0.493, 0.128), vec3(0.921, 0.315, 0.055), vec3(0.816, 0.185, 0.018),
    vec3(0.664, 0.084, 0.004), vec3(0.480, 0.016, 0.011));

// Light ends stay short of pure white so a zero score still reads as a colour.
const vec3 DIVERGING[5] = vec3[5](
    vec3(0.150, 0.280, 0.620), vec3(0.530, 0.680, 0.880), vec3(0.965, 0.965, 0.965),
    vec3(0.930, 0.560, 0.460), vec3(0.690, 0.090, 0.150));

vec3 table17(const vec3 knots[17], float t) {
    float x = clamp(t, 0.0, 1.0) * 16.0;
    int i = min(int(floor(x)), 15);
    return mix(knots[i], knots[i + 1], x - float(i));
}

vec3 diverging(float t) {
    float x = clamp(t, 0.0, 1.0) * 4.0;
    int i = min(int(floor(x)), 3);
    return mix(DIVERGING[i], DIVERGING[i + 1], x - float(i));
}

// t in [0, 1]; out-of-range values clamp to the ends.
vec3 colormap(int which, float t) {
    if (which == CMAP_MAGMA) return table17(MAGMA, t);
    if (which == CMAP_TURBO) return table17(TURBO, t);
    if (which == CMAP_DIVERGING) return diverging(t);
    return table17(VIRIDIS, t);
}
