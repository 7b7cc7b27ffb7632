// JPEG through libjpeg-turbo, set up as Pillow 9.4 sets it up (JpegDecode.c,
// JpegImagePlugin.py), so the pixels equal PIL.Image.open(p).convert("RGB"):
// libjpeg's defaults (accurate integer IDCT, fancy upsampling, block
// smoothing), libjpeg picking the colour space from the JFIF/Adobe markers,
// RGB read as RGBX as Pillow reads it, grey copied to three channels, CMYK
// inverted (Adobe polarity, always) and then turned into RGB by Pillow's
// formula. Warnings (corrupt data) are silenced and decoding goes on, as
// Pillow does; a file that ends before the pixels do is refused, as Pillow
// refuses it unless ImageFile.LOAD_TRUNCATED_IMAGES is set.
#include <csetjmp>
#include <cstdio>  // jpeglib.h uses FILE and size_t without including them
#include <cstdlib>
#include <cstring>

#include <jpeglib.h>

#include "vit/base/error.h"
#include "vit/image/photo_decoders.h"

namespace vit::detail {
namespace {

// Past any photo (libjpeg's default progression has 10 scans), yet a
// crafted file's thousands of scans each re-decoding a 64-megapixel frame
// would take hours. libjpeg-turbo's own fuzzers stop at the same count.
constexpr int kMaxScans = 500;

// libjpeg reports a fatal error by calling error_exit, which must not return.
// Ours longjmps back to the setjmp in guarded() below.
struct ErrorManager {
    jpeg_error_mgr pub;  // first: libjpeg casts cinfo->err to it
    std::jmp_buf jump;
    bool armed = false;  // a jump only while guarded() runs
    char message[JMSG_LENGTH_MAX] = {};
};

ErrorManager& manager(j_common_ptr cinfo) { return *reinterpret_cast<ErrorManager*>(cinfo->err); }

[[noreturn]] void jump_back(j_common_ptr cinfo) {
    ErrorManager& err = manager(cinfo);
    if (!err.armed) std::abort();  // a libjpeg call outside guarded(): a bug here, never input
    std::longjmp(err.jump, 1);
}

void on_error(j_common_ptr cinfo) {
    (*cinfo->err->format_message)(cinfo, manager(cinfo).message);
    jump_back(cinfo);
}

void silence(j_common_ptr) {}  // warnings are counted by libjpeg and otherwise ignored, as in Pillow

void limit_scans(j_common_ptr cinfo) {
    if (reinterpret_cast<j_decompress_ptr>(cinfo)->input_scan_number <= kMaxScans) return;
    std::snprintf(manager(cinfo).message, JMSG_LENGTH_MAX, "more than %d scans; a photo has a few dozen at most",
                  kMaxScans);
    jump_back(cinfo);
}

// The whole file is in memory, so libjpeg asks for more only when the file
// ends early. Then it suspends, as with Pillow's source, and the calls below
// report it (JPEG_SUSPENDED, FALSE, 0 rows): the file is truncated.
void init_source(j_decompress_ptr) {}
boolean fill_input_buffer(j_decompress_ptr) { return FALSE; }
void skip_input_data(j_decompress_ptr cinfo, long count) {
    jpeg_source_mgr* src = cinfo->src;
    if (count <= 0) return;
    const size_t n =
        static_cast<size_t>(count) < src->bytes_in_buffer ? static_cast<size_t>(count) : src->bytes_in_buffer;
    src->next_input_byte += n;  // a skip past the end leaves nothing: the next read suspends
    src->bytes_in_buffer -= n;
}
void term_source(j_decompress_ptr) {}

// Runs `step` (libjpeg calls on plain data) with error_exit armed: on a
// fatal error libjpeg longjmps back here and guarded() returns false. The
// jump skips only libjpeg's C frames and the step's own, which holds no
// object with a destructor, so it is well defined in C++ too; every C++
// object (the buffers, the decoder state) lives in decode_jpeg's frame, which
// the jump does not leave.
template <typename Step>
bool guarded(ErrorManager& err, const Step& step) {
    err.armed = true;
    if (setjmp(err.jump) != 0) {
        err.armed = false;
        return false;
    }
    step();
    err.armed = false;
    return true;
}

// The decompressor and its managers, destroyed however decoding ends.
struct Decompressor {
    jpeg_decompress_struct cinfo{};  // zeroed: jpeg_destroy_decompress is safe even if creation failed
    ErrorManager err;
    jpeg_source_mgr source{};
    jpeg_progress_mgr progress{};

    Decompressor(const uint8_t* bytes, size_t size) {
        cinfo.err = jpeg_std_error(&err.pub);
        err.pub.error_exit = on_error;
        err.pub.output_message = silence;
        source.next_input_byte = bytes;
        source.bytes_in_buffer = size;
        source.init_source = init_source;
        source.fill_input_buffer = fill_input_buffer;
        source.skip_input_data = skip_input_data;
        source.resync_to_restart = jpeg_resync_to_restart;
        source.term_source = term_source;
        progress.progress_monitor = limit_scans;
    }
    ~Decompressor() { jpeg_destroy_decompress(&cinfo); }
    Decompressor(const Decompressor&) = delete;
    Decompressor& operator=(const Decompressor&) = delete;
};

// The first APP1 segment holding EXIF, as Pillow takes it (its "exif" info).
std::vector<uint8_t> first_exif_block(jpeg_saved_marker_ptr marker) {
    for (; marker; marker = marker->next)
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            std::memcmp(marker->data, "Exif\0\0", 6) == 0)
            return {marker->data, marker->data + marker->data_length};
    return {};
}

// Pillow's CMYK;I unpacking (every byte inverted) followed by its cmyk2rgb
// (Convert.c): with the inverted values c' and k', nk = 255 - k' and each
// channel is nk - c' * nk / 255, the division rounded Pillow's way.
uint8_t cmyk_channel(uint8_t c, uint8_t k) {
    const int inverted = 255 - c, nk = k;  // nk = 255 - (255 - k)
    const int t = inverted * nk + 128;
    const int v = nk - (((t >> 8) + t) >> 8);
    return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
}

void row_to_rgb(const JSAMPLE* in, J_COLOR_SPACE space, size_t width, uint8_t* out) {
    for (size_t x = 0; x < width; ++x, out += 3) {
        switch (space) {
            case JCS_GRAYSCALE: out[0] = out[1] = out[2] = in[x]; break;
            case JCS_EXT_RGBX: std::memcpy(out, in + 4 * x, 3); break;
            default: {  // JCS_CMYK
                const JSAMPLE* p = in + 4 * x;
                for (int c = 0; c < 3; ++c) out[c] = cmyk_channel(p[c], p[3]);
            }
        }
    }
}

}  // namespace

DecodedPhoto decode_jpeg(const uint8_t* bytes, size_t size, const std::string& name) {
    Decompressor d(bytes, size);
    jpeg_decompress_struct& c = d.cinfo;
    const auto damaged = [&] { return Error(name + " is a damaged JPEG (" + d.err.message + ")"); };
    const auto truncated = [&] { return Error(name + " is truncated (the JPEG ends before all of its pixels)"); };

    int header = 0;
    if (!guarded(d.err, [&] {
            jpeg_create_decompress(&c);  // zeroes cinfo but for err: the managers go in after
            c.src = &d.source;
            c.progress = &d.progress;
            jpeg_save_markers(&c, JPEG_APP0 + 1, 0xFFFF);
            // As Pillow: a tables-only datastream before the image is read past.
            do header = jpeg_read_header(&c, FALSE);
            while (header == JPEG_HEADER_TABLES_ONLY);
        }))
        throw damaged();
    if (header == JPEG_SUSPENDED) {
        if (c.unread_marker == JPEG_APP0 + 1)  // its length runs past the file's end
            throw Error(name +
                        " is a damaged or truncated JPEG (its APP1 segment, which holds EXIF data, "
                        "runs past the end of the file)");
        throw Error(name + " is truncated or damaged (the JPEG ends before its image data begins)");
    }
    refuse_if_huge(name, c.image_width, c.image_height);  // before libjpeg allocates anything for the pixels

    // What Pillow asks for (its rawmode), from the frame's component count.
    switch (c.num_components) {
        case 1: c.out_color_space = JCS_GRAYSCALE; break;  // "L"
        case 3: c.out_color_space = JCS_EXT_RGBX; break;   // "RGB", read as RGBX
        case 4: c.out_color_space = JCS_CMYK; break;       // "CMYK;I"
        default:
            throw Error(name + " is an unsupported JPEG (" + std::to_string(c.num_components) +
                        " colour components; photos have 1, 3 or 4)");
    }
    DecodedPhoto out;
    out.exif = first_exif_block(c.marker_list);

    boolean started = FALSE;
    if (!guarded(d.err, [&] { started = jpeg_start_decompress(&c); })) throw damaged();
    if (!started) throw truncated();  // a progressive file's scans are all read here
    const size_t width = c.output_width, height = c.output_height;
    if (width != c.image_width || height != c.image_height || width == 0 || height == 0)
        throw Error(name + " is a damaged JPEG (its output size differs from its frame size)");
    out.image.width = static_cast<int>(width);
    out.image.height = static_cast<int>(height);
    out.image.rgb.resize(width * height * 3);
    std::vector<JSAMPLE> row(width * static_cast<size_t>(c.output_components));
    JSAMPROW rows[1] = {row.data()};
    for (size_t y = 0; y < height; ++y) {
        JDIMENSION got = 0;
        if (!guarded(d.err, [&] { got = jpeg_read_scanlines(&c, rows, 1); })) throw damaged();
        if (got != 1) throw truncated();
        row_to_rgb(row.data(), c.out_color_space, width, &out.image.rgb[y * width * 3]);
    }
    // Reads on to EOI. All rows are in, so a missing EOI (a suspension here)
    // is accepted, as Pillow accepts it; an error in what follows is not.
    if (!guarded(d.err, [&] { jpeg_finish_decompress(&c); })) throw damaged();
    return out;
}

}  // namespace vit::detail
