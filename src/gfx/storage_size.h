// How big to make GL storage that is reused while what it holds fits (photo
// textures, render targets): handing Mesa a buffer of a new size for every
// photo fragmented the heap over hundreds of photos.
#pragma once
#include <algorithm>

namespace gfx {

struct Extent {
    int w = 0, h = 0;
    bool operator==(const Extent&) const = default;
};

// Each side grows to the larger of the storage's and the one wanted; the
// storage starts again at `wanted` when that would use under a quarter of it.
// The result equals `storage` when nothing needs allocating.
inline Extent storage_for(Extent wanted, Extent storage) {
    if (4.0 * wanted.w * wanted.h < static_cast<double>(storage.w) * storage.h) return wanted;
    return {std::max(wanted.w, storage.w), std::max(wanted.h, storage.h)};
}

}  // namespace gfx
