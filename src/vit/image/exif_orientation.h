// EXIF orientation: how a camera says the stored pixels must be turned to be
// upright. Read as Pillow's getexif() reads it (IFD0's Orientation tag) and
// applied as PIL.ImageOps.exif_transpose applies it, so vitscope sees the
// photo as the person who took it does.
#pragma once
#include <cstddef>
#include <cstdint>

#include "vit/image/image.h"

namespace vit::detail {

// The Orientation (1..8) in an EXIF block: TIFF data, optionally after the
// "Exif\0\0" header of a JPEG APP1 segment. 1 (as stored) when there is none,
// when its value is not 1..8, or when the block cannot be read: a damaged
// EXIF block never stops the photo from opening. Entries past the block's end
// (an IFD that claims more than the block holds) are not read. Not read
// either: the XMP tiff:Orientation and ImageMagick "Raw profile type exif"
// text that Pillow falls back on when a file has no EXIF block.
int exif_orientation(const uint8_t* exif, size_t size);

// Turns `image` by one of the eight EXIF orientations, as exif_transpose
// does: 2 mirror, 3 half turn, 4 flip, 5 transpose, 6 quarter turn
// clockwise, 7 transverse, 8 quarter turn anticlockwise. 1 leaves it as is.
void apply_orientation(Image& image, int orientation);

}  // namespace vit::detail
