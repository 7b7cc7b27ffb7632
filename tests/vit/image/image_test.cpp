// load_image / decode_image: real photos, every pixel layout the decoders turn
// into RGB, EXIF orientation, and every kind of bad file, each refused with a
// one-line message that names the file. Test files are written into a fresh
// temp directory: stb_image_write and libwebp's encoder where they can, small
// hand-built PNG and GIF files where they cannot (16-bit and palette PNG,
// headers without pixels, eXIf chunks, two-frame GIF). Pixel-for-pixel
// comparisons with PIL are in tests/vit/image/photo_pil_test.py.
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#include <unistd.h>

#include <webp/encode.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "support/default_model.h"
#include "vit/base/error.h"
#include "vit/image/exif_orientation.h"
#include "vit/image/image.h"
#include "vit/image/image_format.h"

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

using vit::testing::asset;

class TempDir {
public:
    TempDir() {
        std::random_device random;
        path_ = fs::temp_directory_path() /
                ("vitscope_image_test_" + std::to_string(getpid()) + "_" + std::to_string(random()));
        fs::create_directories(path_);
    }
    ~TempDir() { fs::remove_all(path_); }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

Bytes read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

Bytes head(const Bytes& bytes, size_t n) { return Bytes(bytes.begin(), bytes.begin() + static_cast<long>(n)); }

// --- a minimal PNG writer: stored (uncompressed) deflate blocks, real CRCs ---

void put_be32(Bytes& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

uint32_t crc32(const uint8_t* p, size_t n) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

void put_chunk(Bytes& out, const char* type, const Bytes& data) {
    put_be32(out, static_cast<uint32_t>(data.size()));
    const size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put_be32(out, crc32(&out[start], out.size() - start));
}

Bytes zlib_stored(const Bytes& data) {
    Bytes out{0x78, 0x01};
    size_t pos = 0;
    do {
        const size_t n = std::min<size_t>(data.size() - pos, 65535);
        const bool last = pos + n == data.size();
        out.push_back(last ? 1 : 0);
        out.push_back(static_cast<uint8_t>(n)), out.push_back(static_cast<uint8_t>(n >> 8));
        out.push_back(static_cast<uint8_t>(~n)), out.push_back(static_cast<uint8_t>(~n >> 8));
        out.insert(out.end(), data.begin() + static_cast<long>(pos), data.begin() + static_cast<long>(pos + n));
        pos += n;
    } while (pos < data.size());
    uint32_t a = 1, b = 0;
    for (uint8_t v : data) a = (a + v) % 65521, b = (b + a) % 65521;
    put_be32(out, b << 16 | a);
    return out;
}

// rows: raw samples per row, without PNG's filter byte. No IDAT when rows is empty.
Bytes png_file(uint32_t width, uint32_t height, uint8_t depth, uint8_t colour_type, const std::vector<Bytes>& rows,
               const Bytes& palette = {}, const Bytes& exif = {}) {
    Bytes out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    Bytes ihdr;
    put_be32(ihdr, width);
    put_be32(ihdr, height);
    ihdr.insert(ihdr.end(), {depth, colour_type, 0, 0, 0});
    put_chunk(out, "IHDR", ihdr);
    if (!palette.empty()) put_chunk(out, "PLTE", palette);
    if (!exif.empty()) put_chunk(out, "eXIf", exif);
    if (!rows.empty()) {
        Bytes raw;
        for (const Bytes& row : rows) {
            raw.push_back(0);  // filter: none
            raw.insert(raw.end(), row.begin(), row.end());
        }
        put_chunk(out, "IDAT", zlib_stored(raw));
    }
    put_chunk(out, "IEND", {});
    return out;
}

// --- a GIF of two frames, each one palette colour (red, then green) ---

// LZW without compression: a clear code before every pixel keeps codes 3 bits wide.
Bytes lzw_one_colour(int pixels, uint8_t index) {
    Bytes out;
    uint32_t bits = 0;
    int nbits = 0;
    const auto put = [&](uint32_t code) {
        bits |= code << nbits;
        nbits += 3;
        while (nbits >= 8) out.push_back(static_cast<uint8_t>(bits)), bits >>= 8, nbits -= 8;
    };
    for (int i = 0; i < pixels; ++i) put(4), put(index);  // clear = 4 for a 2-bit code size
    put(5);                                               // end of information
    if (nbits > 0) out.push_back(static_cast<uint8_t>(bits));
    return out;
}

Bytes two_frame_gif(uint16_t w, uint16_t h) {
    Bytes out{'G', 'I', 'F', '8', '9', 'a'};
    const auto put16 = [&out](uint16_t v) {
        out.push_back(static_cast<uint8_t>(v)), out.push_back(static_cast<uint8_t>(v >> 8));
    };
    put16(w), put16(h);
    out.insert(out.end(), {0xF0, 0, 0});            // global table of 2 colours
    out.insert(out.end(), {255, 0, 0, 0, 255, 0});  // red, green
    for (uint8_t index : {0, 1}) {
        out.push_back(0x2C);
        put16(0), put16(0), put16(w), put16(h);
        out.push_back(0);  // no local table, not interlaced
        out.push_back(2);  // LZW minimum code size
        const Bytes data = lzw_one_colour(w * h, index);
        for (size_t pos = 0; pos < data.size(); pos += 255) {
            const size_t n = std::min<size_t>(255, data.size() - pos);
            out.push_back(static_cast<uint8_t>(n));
            out.insert(out.end(), data.begin() + static_cast<long>(pos), data.begin() + static_cast<long>(pos + n));
        }
        out.push_back(0);
    }
    out.push_back(0x3B);
    return out;
}

// --- assertions ---

std::string load_error(const std::string& path) {
    try {
        vit::load_image(path);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "(no error)";
}

void expect_load_error(const std::string& path, const std::string& part) {
    const std::string message = load_error(path);
    EXPECT_EQ(message.rfind(path, 0), 0u) << "does not start with the file name: " << message;
    EXPECT_NE(message.find(part), std::string::npos) << "expected \"" << part << "\" in: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

void expect_rgb(const vit::Image& image, int x, int y, int r, int g, int b) {
    EXPECT_EQ(image.at(x, y, 0), r) << "at " << x << "," << y;
    EXPECT_EQ(image.at(x, y, 1), g) << "at " << x << "," << y;
    EXPECT_EQ(image.at(x, y, 2), b) << "at " << x << "," << y;
}

// --- real photos ---

TEST(ImageDecode, PngPhotosMatchPil) {  // PNG decoding is lossless: PIL's pixels are the truth
    const vit::Image chelsea = vit::load_image(asset("chelsea.png"));
    ASSERT_EQ(chelsea.width, 451);
    ASSERT_EQ(chelsea.height, 300);
    ASSERT_EQ(chelsea.rgb.size(), 451u * 300 * 3);
    expect_rgb(chelsea, 0, 0, 143, 120, 104);
    expect_rgb(chelsea, 225, 150, 190, 150, 124);
    expect_rgb(chelsea, 450, 299, 162, 138, 128);

    const vit::Image coffee = vit::load_image(asset("coffee.png"));
    ASSERT_EQ(coffee.width, 600);
    ASSERT_EQ(coffee.height, 400);
    expect_rgb(coffee, 0, 0, 21, 13, 8);
    expect_rgb(coffee, 300, 200, 248, 250, 255);
    expect_rgb(coffee, 599, 399, 143, 60, 29);
}

TEST(ImageDecode, JpegPhotosMatchPil) {
    // libjpeg-turbo set up as Pillow sets it up: PIL's pixels exactly
    // (tests/vit/image/photo_pil_test.py compares every pixel of many more files).
    const vit::Image dog = vit::load_image(asset("dog.jpg"));
    ASSERT_EQ(dog.width, 768);
    ASSERT_EQ(dog.height, 576);
    ASSERT_EQ(dog.rgb.size(), 768u * 576 * 3);
    expect_rgb(dog, 0, 0, 57, 58, 50);
    expect_rgb(dog, 384, 288, 119, 6, 10);
    expect_rgb(dog, 767, 575, 50, 39, 35);

    const vit::Image eagle = vit::load_image(asset("eagle.jpg"));
    ASSERT_EQ(eagle.width, 773);
    ASSERT_EQ(eagle.height, 512);
    expect_rgb(eagle, 0, 0, 74, 80, 106);
    expect_rgb(eagle, 386, 256, 154, 111, 69);
    expect_rgb(eagle, 772, 511, 38, 24, 23);
}

TEST(ImageDecode, FromMemoryEqualsFromFile) {
    const Bytes bytes = read_bytes(asset("dog.jpg"));
    const vit::Image a = vit::decode_image(bytes.data(), bytes.size());
    const vit::Image b = vit::load_image(asset("dog.jpg"));
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.height, b.height);
    EXPECT_EQ(a.rgb, b.rgb);
}

TEST(ImageDecode, IgnoresGlobalFlipFlag) {  // the GL code may flip its own textures
    TempDir dir;
    const uint8_t rows[] = {10, 20, 30, 40, 50, 60};  // 1 x 2: top pixel, bottom pixel
    ASSERT_TRUE(stbi_write_png(dir.file("column.png").c_str(), 1, 2, 3, rows, 3));
    stbi_set_flip_vertically_on_load(1);
    const vit::Image image = vit::load_image(dir.file("column.png"));
    stbi_set_flip_vertically_on_load(0);
    expect_rgb(image, 0, 0, 10, 20, 30);
    expect_rgb(image, 0, 1, 40, 50, 60);
}

// --- pixel layouts ---

TEST(ImageDecode, GreyBecomesEqualChannels) {
    TempDir dir;
    const uint8_t grey[] = {0, 50, 100, 150, 200, 255};
    ASSERT_TRUE(stbi_write_png(dir.file("grey.png").c_str(), 3, 2, 1, grey, 3));
    const vit::Image image = vit::load_image(dir.file("grey.png"));
    ASSERT_EQ(image.width, 3);
    ASSERT_EQ(image.height, 2);
    for (int i = 0; i < 6; ++i) expect_rgb(image, i % 3, i / 3, grey[i], grey[i], grey[i]);
}

TEST(ImageDecode, GreyAlphaDropsAlpha) {
    TempDir dir;
    const uint8_t grey_alpha[] = {30, 0, 90, 128, 220, 255};
    ASSERT_TRUE(stbi_write_png(dir.file("ga.png").c_str(), 3, 1, 2, grey_alpha, 6));
    const vit::Image image = vit::load_image(dir.file("ga.png"));
    expect_rgb(image, 0, 0, 30, 30, 30);
    expect_rgb(image, 1, 0, 90, 90, 90);
    expect_rgb(image, 2, 0, 220, 220, 220);
}

TEST(ImageDecode, RgbaDropsAlphaWithoutBlending) {  // as PIL's convert('RGB')
    TempDir dir;
    const uint8_t rgba[] = {200, 100, 50, 0, 1, 2, 3, 77};
    ASSERT_TRUE(stbi_write_png(dir.file("rgba.png").c_str(), 2, 1, 4, rgba, 8));
    const vit::Image image = vit::load_image(dir.file("rgba.png"));
    ASSERT_EQ(image.rgb.size(), 6u);
    expect_rgb(image, 0, 0, 200, 100, 50);
    expect_rgb(image, 1, 0, 1, 2, 3);
}

TEST(ImageDecode, SixteenBitPngKeepsHighByte) {
    TempDir dir;
    // Big-endian samples: (0x1234, 0xABCD, 0xFF00), (0x00FF, 0x8000, 0x7FFF).
    const Bytes rgb16 = {0x12, 0x34, 0xAB, 0xCD, 0xFF, 0x00, 0x00, 0xFF, 0x80, 0x00, 0x7F, 0xFF};
    write_bytes(dir.file("rgb16.png"), png_file(2, 1, 16, 2, {rgb16}));
    const vit::Image rgb = vit::load_image(dir.file("rgb16.png"));
    expect_rgb(rgb, 0, 0, 0x12, 0xAB, 0xFF);
    expect_rgb(rgb, 1, 0, 0x00, 0x80, 0x7F);

    write_bytes(dir.file("grey16.png"), png_file(2, 1, 16, 0, {{0xC3, 0x50, 0x01, 0xFF}}));
    const vit::Image grey = vit::load_image(dir.file("grey16.png"));
    expect_rgb(grey, 0, 0, 0xC3, 0xC3, 0xC3);
    expect_rgb(grey, 1, 0, 0x01, 0x01, 0x01);
}

TEST(ImageDecode, PalettePng) {
    TempDir dir;
    write_bytes(dir.file("palette.png"), png_file(3, 1, 8, 3, {{2, 0, 1}}, {10, 20, 30, 40, 50, 60, 70, 80, 90}));
    const vit::Image image = vit::load_image(dir.file("palette.png"));
    expect_rgb(image, 0, 0, 70, 80, 90);
    expect_rgb(image, 1, 0, 10, 20, 30);
    expect_rgb(image, 2, 0, 40, 50, 60);
}

TEST(ImageDecode, GifGivesFirstFrame) {
    TempDir dir;
    write_bytes(dir.file("two.gif"), two_frame_gif(3, 2));
    const vit::Image image = vit::load_image(dir.file("two.gif"));
    ASSERT_EQ(image.width, 3);
    ASSERT_EQ(image.height, 2);
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 3; ++x) expect_rgb(image, x, y, 255, 0, 0);
}

TEST(ImageDecode, Bmp) {
    TempDir dir;
    const uint8_t rgb[] = {1, 2, 3, 40, 50, 60, 70, 80, 90, 200, 210, 220, 250, 0, 125, 9, 8, 7};
    ASSERT_TRUE(stbi_write_bmp(dir.file("small.bmp").c_str(), 3, 2, 3, rgb));
    const vit::Image image = vit::load_image(dir.file("small.bmp"));
    ASSERT_EQ(image.width, 3);
    ASSERT_EQ(image.height, 2);
    EXPECT_EQ(image.rgb, Bytes(std::begin(rgb), std::end(rgb)));
}

// --- WebP (libwebp) ---

Bytes webp_lossless(const uint8_t* pixels, int width, int height, int channels) {
    uint8_t* out = nullptr;
    const size_t size = channels == 4 ? WebPEncodeLosslessRGBA(pixels, width, height, width * 4, &out)
                                      : WebPEncodeLosslessRGB(pixels, width, height, width * 3, &out);
    Bytes bytes(out, out + size);
    WebPFree(out);
    return bytes;
}

TEST(ImageDecode, LosslessWebpIsExact) {
    TempDir dir;
    std::vector<uint8_t> rgb(7 * 5 * 3);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>(i * 37 + 11);
    write_bytes(dir.file("small.webp"), webp_lossless(rgb.data(), 7, 5, 3));
    const vit::Image image = vit::load_image(dir.file("small.webp"));
    ASSERT_EQ(image.width, 7);
    ASSERT_EQ(image.height, 5);
    EXPECT_EQ(image.rgb, rgb);
}

TEST(ImageDecode, WebpAlphaIsDroppedWithoutBlending) {  // as PIL's convert('RGB')
    TempDir dir;
    const uint8_t rgba[] = {200, 100, 50, 1, 1, 2, 3, 77, 90, 80, 70, 255};
    write_bytes(dir.file("alpha.webp"), webp_lossless(rgba, 3, 1, 4));
    const vit::Image image = vit::load_image(dir.file("alpha.webp"));
    ASSERT_EQ(image.rgb.size(), 9u);
    expect_rgb(image, 0, 0, 200, 100, 50);
    expect_rgb(image, 1, 0, 1, 2, 3);
    expect_rgb(image, 2, 0, 90, 80, 70);
}

// The size each WebP header states (VP8X canvas, VP8L and VP8 frames), read
// before decoding for the megapixel limit, is the size libwebp decodes.
TEST(ImageDecode, WebpHeaderSizeIsTheDecodedSize) {
    const std::string seeds = std::string(VITSCOPE_SOURCE_DIR) + "/fuzz/corpus/image/";
    for (const char* name : {"lossy.webp", "lossless_alpha.webp", "exif_orientation_6.webp", "animated.webp"}) {
        SCOPED_TRACE(name);
        const Bytes bytes = read_bytes(seeds + name);
        ASSERT_FALSE(bytes.empty());
        ASSERT_EQ(vit::detail::sniff_format(bytes.data(), bytes.size()), vit::detail::ImageFormat::WebP);
        const vit::detail::HeaderSize header =
            vit::detail::read_header_size(vit::detail::ImageFormat::WebP, bytes.data(), bytes.size());
        const vit::Image image = vit::decode_image(bytes.data(), bytes.size());
        const bool turned = image.orientation >= 5;
        EXPECT_EQ(header.width, turned ? image.height : image.width);
        EXPECT_EQ(header.height, turned ? image.width : image.height);
    }
}

// --- EXIF orientation ---

// A big-endian TIFF block: IFD0 with one Orientation entry of the given type
// (3 SHORT, 4 LONG) and value; `claimed` entries in the count field.
Bytes exif_block(int orientation, uint16_t type = 3, uint16_t claimed = 1) {
    Bytes b = {'M', 'M', 0, 42, 0, 0, 0, 8};
    b.push_back(static_cast<uint8_t>(claimed >> 8)), b.push_back(static_cast<uint8_t>(claimed));
    b.insert(b.end(), {0x01, 0x12, 0, static_cast<uint8_t>(type), 0, 0, 0, 1});  // tag 0x0112, type, count 1
    if (type == 4) b.insert(b.end(), {0, 0, 0, static_cast<uint8_t>(orientation)});
    else b.insert(b.end(), {0, static_cast<uint8_t>(orientation), 0, 0});
    b.insert(b.end(), {0, 0, 0, 0});  // no next IFD
    return b;
}

// The EXIF spec's meaning of each orientation, on a 3 x 2 photo stored as
// A B C / D E F (A = 1 ... F = 6): what the upright photo shows, row by row.
TEST(ImageOrientation, EachOfTheEightOrientations) {
    const std::vector<std::vector<std::vector<int>>> upright = {
        {{1, 2, 3}, {4, 5, 6}},    // 1 as stored
        {{3, 2, 1}, {6, 5, 4}},    // 2 mirrored left-right
        {{6, 5, 4}, {3, 2, 1}},    // 3 half turn
        {{4, 5, 6}, {1, 2, 3}},    // 4 mirrored top-bottom
        {{1, 4}, {2, 5}, {3, 6}},  // 5 transposed
        {{4, 1}, {5, 2}, {6, 3}},  // 6 a quarter turn clockwise
        {{6, 3}, {5, 2}, {4, 1}},  // 7 transverse
        {{3, 6}, {2, 5}, {1, 4}},  // 8 a quarter turn anticlockwise
    };
    TempDir dir;
    for (int o = 1; o <= 8; ++o) {
        SCOPED_TRACE("orientation " + std::to_string(o));
        const std::vector<Bytes> rows = {{1, 1, 1, 2, 2, 2, 3, 3, 3}, {4, 4, 4, 5, 5, 5, 6, 6, 6}};
        write_bytes(dir.file("turned.png"), png_file(3, 2, 8, 2, rows, {}, exif_block(o)));
        const vit::Image image = vit::load_image(dir.file("turned.png"));
        const auto& want = upright[o - 1];
        ASSERT_EQ(image.height, static_cast<int>(want.size()));
        ASSERT_EQ(image.width, static_cast<int>(want[0].size()));
        EXPECT_EQ(image.orientation, o);
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x) expect_rgb(image, x, y, want[y][x], want[y][x], want[y][x]);
    }
}

TEST(ImageOrientation, ReadFromTheExifBlock) {
    using vit::detail::exif_orientation;
    const auto read = [](const Bytes& b) { return exif_orientation(b.data(), b.size()); };
    EXPECT_EQ(read(exif_block(6)), 6);
    EXPECT_EQ(read(exif_block(8, 4)), 8);  // a LONG, which Pillow reads too
    Bytes with_header = {'E', 'x', 'i', 'f', 0, 0};
    const Bytes tiff = exif_block(3);
    with_header.insert(with_header.end(), tiff.begin(), tiff.end());
    EXPECT_EQ(read(with_header), 3);  // as a JPEG's APP1 holds it
    Bytes little = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(read(little), 5);
    // Not an orientation: 1, the photo as stored.
    EXPECT_EQ(read(exif_block(0)), 1);
    EXPECT_EQ(read(exif_block(9)), 1);
    EXPECT_EQ(read({}), 1);
    EXPECT_EQ(read(Bytes(40, 0xAB)), 1);
}

// An EXIF block that lies about its length: its IFD claims 500 entries and
// the block holds one, or IFD0 starts past the block's end. Read as Pillow
// reads it: the entries that are there count, the rest are not read, and the
// photo opens either way.
TEST(ImageOrientation, ExifBlockThatLiesAboutItsLength) {
    using vit::detail::exif_orientation;
    const Bytes claims_more = exif_block(6, 3, 500);
    EXPECT_EQ(exif_orientation(claims_more.data(), claims_more.size()), 6);
    Bytes past_end = exif_block(6);
    past_end[7] = 200;  // IFD0 at offset 200 of a 26-byte block
    EXPECT_EQ(exif_orientation(past_end.data(), past_end.size()), 1);
    Bytes cut = exif_block(6);
    cut.resize(14);  // the block ends inside the Orientation entry
    EXPECT_EQ(exif_orientation(cut.data(), cut.size()), 1);

    TempDir dir;
    const std::vector<Bytes> rows = {{1, 1, 1, 2, 2, 2, 3, 3, 3}, {4, 4, 4, 5, 5, 5, 6, 6, 6}};
    write_bytes(dir.file("lying.png"), png_file(3, 2, 8, 2, rows, {}, past_end));
    const vit::Image image = vit::load_image(dir.file("lying.png"));
    EXPECT_EQ(image.width, 3);
    EXPECT_EQ(image.orientation, 1);
}

// --- files that are not, or not whole, images ---

TEST(ImageErrors, MissingFile) {
    TempDir dir;
    expect_load_error(dir.file("nope.jpg"), "nope.jpg: not found");
}

TEST(ImageErrors, Directory) {
    TempDir dir;
    fs::create_directory(dir.file("photos.jpg"));
    expect_load_error(dir.file("photos.jpg"), "is a directory");
}

TEST(ImageErrors, Unreadable) {
    if (geteuid() == 0) GTEST_SKIP() << "root reads any file";
    TempDir dir;
    write_bytes(dir.file("locked.png"), read_bytes(asset("chelsea.png")));
    fs::permissions(dir.file("locked.png"), fs::perms::none);
    const std::string message = load_error(dir.file("locked.png"));
    EXPECT_EQ(message, "cannot read " + dir.file("locked.png") + ": Permission denied");
}

TEST(ImageErrors, EmptyFile) {
    TempDir dir;
    write_bytes(dir.file("empty.png"), {});
    expect_load_error(dir.file("empty.png"), " is empty");
    EXPECT_THROW(vit::decode_image(nullptr, 0), vit::Error);
}

TEST(ImageErrors, TextFile) {
    TempDir dir;
    const std::string text = "This is a shopping list, not a photo.\nmilk\neggs\n";
    write_bytes(dir.file("list.jpg"), Bytes(text.begin(), text.end()));
    const std::string message = load_error(dir.file("list.jpg"));
    EXPECT_EQ(message, dir.file("list.jpg") + " is not an image vitscope can read (JPEG, PNG, WebP, BMP or GIF)");
}

TEST(ImageErrors, UnnamedBytesAreCalledTheImage) {
    const std::string text = "plain text";
    try {
        vit::decode_image(reinterpret_cast<const uint8_t*>(text.data()), text.size());
        FAIL() << "decoded text";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()), "the image is not an image vitscope can read (JPEG, PNG, WebP, BMP or GIF)");
    }
}

TEST(ImageErrors, TruncatedJpeg) {  // refused, as Pillow refuses it without LOAD_TRUNCATED_IMAGES
    TempDir dir;
    const Bytes dog = read_bytes(asset("dog.jpg"));
    write_bytes(dir.file("half.jpg"), head(dog, dog.size() / 2));
    expect_load_error(dir.file("half.jpg"), "is truncated (the JPEG ends before all of its pixels)");
    // libjpeg needs the bits after the last block, or a marker, to decode it.
    write_bytes(dir.file("no_eoi.jpg"), head(dog, dog.size() - 2));
    expect_load_error(dir.file("no_eoi.jpg"), "is truncated (the JPEG ends before all of its pixels)");
    write_bytes(dir.file("tables_only.jpg"), head(dog, 8500));  // after the EXIF block, inside the tables
    expect_load_error(dir.file("tables_only.jpg"),
                      "is truncated or damaged (the JPEG ends before its image data begins)");
}

// dog.jpg's headers (its first 9000 bytes) with the EXIF block (APP1)
// claiming 60000 bytes: the rest of the file would be part of it. Pillow
// refuses it too ("Truncated File Read").
TEST(ImageErrors, ExifSegmentLongerThanTheFile) {
    TempDir dir;
    Bytes dog = head(read_bytes(asset("dog.jpg")), 9000);
    ASSERT_EQ(dog[2], 0xFF);
    ASSERT_EQ(dog[3], 0xE1);  // APP1 first
    ASSERT_EQ(std::string(dog.begin() + 6, dog.begin() + 10), "Exif");
    dog[4] = 60000 >> 8, dog[5] = 60000 & 0xFF;
    write_bytes(dir.file("long_exif.jpg"), dog);
    expect_load_error(
        dir.file("long_exif.jpg"),
        "is a damaged or truncated JPEG (its APP1 segment, which holds EXIF data, runs past the end of the file)");
}

// The first Huffman table (DHT) of dog.jpg rewritten to declare 16 x 255 codes
// in a segment far too short for them: libjpeg's own check refuses it.
TEST(ImageErrors, CorruptJpegHuffmanTable) {
    TempDir dir;
    Bytes dog = read_bytes(asset("dog.jpg"));
    const Bytes dht = {0xFF, 0xC4};
    const auto at = std::search(dog.begin(), dog.end(), dht.begin(), dht.end());
    ASSERT_NE(at, dog.end());
    std::fill(at + 5, at + 21, 255);  // the 16 code counts after length and class/id
    write_bytes(dir.file("bad_dht.jpg"), dog);
    EXPECT_EQ(load_error(dir.file("bad_dht.jpg")),
              dir.file("bad_dht.jpg") + " is a damaged JPEG (Bogus Huffman table definition)");
}

// A progressive JPEG whose first scan is repeated 600 times: libjpeg only
// warns about the odd progression and would decode every copy; vitscope stops
// at 500 scans (a crafted file could otherwise take hours at 64 megapixels).
TEST(ImageErrors, JpegWithTooManyScans) {
    TempDir dir;
    const Bytes prog = read_bytes(std::string(VITSCOPE_SOURCE_DIR) + "/fuzz/corpus/image/progressive.jpg");
    const Bytes sos = {0xFF, 0xDA};
    const auto first = std::search(prog.begin(), prog.end(), sos.begin(), sos.end());
    ASSERT_NE(first, prog.end());
    const auto next = std::search(first + 2, prog.end(), sos.begin(), sos.end());
    ASSERT_NE(next, prog.end());
    Bytes many(prog.begin(), first);
    for (int i = 0; i < 600; ++i) many.insert(many.end(), first, next);
    many.insert(many.end(), next, prog.end());
    write_bytes(dir.file("many_scans.jpg"), many);
    expect_load_error(dir.file("many_scans.jpg"), "is a damaged JPEG (more than 500 scans");
    // The same file with 20 copies is decoded (libjpeg warns and goes on, as with Pillow).
    Bytes some(prog.begin(), first);
    for (int i = 0; i < 20; ++i) some.insert(some.end(), first, next);
    some.insert(some.end(), next, prog.end());
    write_bytes(dir.file("some_scans.jpg"), some);
    EXPECT_EQ(vit::load_image(dir.file("some_scans.jpg")).width, 12);
}

TEST(ImageErrors, DamagedJpegHeader) {
    TempDir dir;
    Bytes junk(200, 0x11);  // SOI, then nothing that parses
    junk[0] = 0xFF, junk[1] = 0xD8, junk[2] = 0xFF;
    write_bytes(dir.file("junk.jpg"), junk);
    expect_load_error(dir.file("junk.jpg"), "JPEG");
}

TEST(ImageErrors, BytesAfterTheEndAreAllowed) {  // phones append data after EOI / IEND
    TempDir dir;
    for (const char* name : {"dog.jpg", "chelsea.png"}) {
        SCOPED_TRACE(name);
        Bytes bytes = read_bytes(asset(name));
        const std::string tail = "trailing data a camera appended";
        bytes.insert(bytes.end(), tail.begin(), tail.end());
        write_bytes(dir.file(name), bytes);
        EXPECT_EQ(vit::load_image(dir.file(name)).rgb, vit::load_image(asset(name)).rgb);
    }
}

TEST(ImageErrors, TruncatedPng) {
    TempDir dir;
    const Bytes chelsea = read_bytes(asset("chelsea.png"));
    write_bytes(dir.file("half.png"), head(chelsea, chelsea.size() / 2));
    expect_load_error(dir.file("half.png"), "is truncated (the PNG ends before its IEND chunk)");
    write_bytes(dir.file("no_iend.png"), head(chelsea, chelsea.size() - 12));
    expect_load_error(dir.file("no_iend.png"), "is truncated");
}

TEST(ImageErrors, TruncatedBmp) {
    TempDir dir;
    std::vector<uint8_t> rgb(40 * 30 * 3, 99);
    ASSERT_TRUE(stbi_write_bmp(dir.file("full.bmp").c_str(), 40, 30, 3, rgb.data()));
    const Bytes bmp = read_bytes(dir.file("full.bmp"));
    write_bytes(dir.file("cut.bmp"), head(bmp, bmp.size() - 100));
    expect_load_error(dir.file("cut.bmp"), "is truncated (the BMP ends before its pixel data does)");
}

TEST(ImageErrors, TruncatedGifFirstFrame) {
    TempDir dir;
    const Bytes gif = two_frame_gif(40, 30);
    const size_t first_frame_end = 19 + (gif.size() - 20) / 2;  // header 19, two equal frames, trailer 1
    write_bytes(dir.file("cut_first.gif"), head(gif, 30));
    expect_load_error(dir.file("cut_first.gif"), "is truncated (the GIF ends inside its first frame)");
    // Only the first frame is shown, so a cut in the second does not matter.
    write_bytes(dir.file("cut_second.gif"), head(gif, first_frame_end + 5));
    const vit::Image image = vit::load_image(dir.file("cut_second.gif"));
    expect_rgb(image, 39, 29, 255, 0, 0);
}

TEST(ImageErrors, TruncatedWebp) {
    TempDir dir;
    std::vector<uint8_t> rgb(64 * 48 * 3);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>((i * 7919) >> 3);
    const Bytes webp = webp_lossless(rgb.data(), 64, 48, 3);
    write_bytes(dir.file("half.webp"), head(webp, webp.size() / 2));
    expect_load_error(dir.file("half.webp"), "is truncated (the WebP's RIFF header states " +
                                                 std::to_string(webp.size()) + " bytes, the file has " +
                                                 std::to_string(webp.size() / 2) + ")");
    // The same cut with the RIFF size made to match: libwebp finds the bitstream short.
    Bytes cut = head(webp, webp.size() / 2);
    const uint32_t riff = static_cast<uint32_t>(cut.size() - 8);
    std::memcpy(&cut[4], &riff, 4);  // little-endian host
    write_bytes(dir.file("cut.webp"), cut);
    expect_load_error(dir.file("cut.webp"), "is a damaged or unsupported WebP");
    write_bytes(dir.file("riff_only.webp"), head(webp, 10));
    expect_load_error(dir.file("riff_only.webp"), "is not an image vitscope can read");  // no "WEBP" yet
}

TEST(ImageErrors, OverPixelLimitRefusedFromHeader) {
    TempDir dir;
    write_bytes(dir.file("photo.png"), png_file(20000, 20000, 8, 2, {}));
    EXPECT_EQ(load_error(dir.file("photo.png")),
              dir.file("photo.png") + ": 20000 x 20000 pixels is over the 64-megapixel limit");

    write_bytes(dir.file("wide.png"), png_file(8001, 8000, 8, 2, {}));
    expect_load_error(dir.file("wide.png"), "8001 x 8000 pixels is over the 64-megapixel limit");
    // 9000 = 0x2328: a JPEG frame header (SOF0), and a GIF screen, with no pixels after them.
    write_bytes(dir.file("big.jpg"),
                {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 8, 0x23, 0x28, 0x23, 0x28, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0});
    expect_load_error(dir.file("big.jpg"), ": 9000 x 9000 pixels is over the 64-megapixel limit");
    write_bytes(dir.file("big.gif"), {'G', 'I', 'F', '8', '9', 'a', 0x28, 0x23, 0x28, 0x23, 0, 0, 0});
    expect_load_error(dir.file("big.gif"), ": 9000 x 9000 pixels is over the 64-megapixel limit");
    // A WebP VP8X header with a 16384 x 16384 canvas (width - 1 and height - 1 in 24 bits), nothing after it.
    write_bytes(dir.file("big.webp"), {'R', 'I', 'F', 'F', 22, 0, 0, 0, 'W', 'E',  'B',  'P', 'V',  'P',  '8',
                                       'X', 10,  0,   0,   0,  0, 0, 0, 0,   0xFF, 0x3F, 0,   0xFF, 0x3F, 0});
    expect_load_error(dir.file("big.webp"), ": 16384 x 16384 pixels is over the 64-megapixel limit");

    // Exactly 64 megapixels passes the limit; this file without pixel data then fails to decode.
    write_bytes(dir.file("limit.png"), png_file(8000, 8000, 8, 2, {}));
    expect_load_error(dir.file("limit.png"), "is a damaged or unsupported PNG (no IDAT)");
}

TEST(ImageErrors, OverPixelLimitBmpFailsFast) {
    // A 54-byte BMP header claiming 10000 x 10000: decoding it would allocate
    // 300 MB and read zeros; the header check must refuse it at once.
    TempDir dir;
    Bytes bmp(54, 0);
    const auto put32 = [&bmp](size_t at, uint32_t v) { std::memcpy(&bmp[at], &v, 4); };  // little-endian host
    bmp[0] = 'B', bmp[1] = 'M';
    put32(2, 54), put32(10, 54), put32(14, 40), put32(18, 10000), put32(22, 10000);
    bmp[26] = 1, bmp[28] = 24;
    write_bytes(dir.file("huge.bmp"), bmp);
    const auto start = std::chrono::steady_clock::now();
    expect_load_error(dir.file("huge.bmp"), "10000 x 10000 pixels is over the 64-megapixel limit");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
}

}  // namespace
