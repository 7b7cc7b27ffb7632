// load_image / decode_image: real photos, every pixel layout stb_image turns
// into RGB, and every kind of bad file, each refused with a one-line message
// that names the file. Test files are written into a fresh temp directory:
// stb_image_write where it can, small hand-built PNG and GIF files where it
// cannot (16-bit and palette PNG, headers without pixels, two-frame GIF).
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "vit/error.h"
#include "vit/image.h"
#include "support/default_model.h"

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

using vit::testing::asset;

class TempDir {
public:
    TempDir() {
        std::random_device random;
        path_ = fs::temp_directory_path() / ("vitscope_image_test_" + std::to_string(getpid()) + "_" + std::to_string(random()));
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
               const Bytes& palette = {}) {
    Bytes out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    Bytes ihdr;
    put_be32(ihdr, width);
    put_be32(ihdr, height);
    ihdr.insert(ihdr.end(), {depth, colour_type, 0, 0, 0});
    put_chunk(out, "IHDR", ihdr);
    if (!palette.empty()) put_chunk(out, "PLTE", palette);
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
    put(5);  // end of information
    if (nbits > 0) out.push_back(static_cast<uint8_t>(bits));
    return out;
}

Bytes two_frame_gif(uint16_t w, uint16_t h) {
    Bytes out{'G', 'I', 'F', '8', '9', 'a'};
    const auto put16 = [&out](uint16_t v) { out.push_back(static_cast<uint8_t>(v)), out.push_back(static_cast<uint8_t>(v >> 8)); };
    put16(w), put16(h);
    out.insert(out.end(), {0xF0, 0, 0});               // global table of 2 colours
    out.insert(out.end(), {255, 0, 0, 0, 255, 0});     // red, green
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

TEST(ImageDecode, JpegPhotosCloseToPil) {
    // stb_image and libjpeg round their IDCT and colour conversion differently,
    // so compare channel means (from PIL) rather than single pixels.
    struct Case { const char* name; int w, h; double mean[3]; };
    for (const Case& c : {Case{"dog.jpg", 768, 576, {134.447, 135.666, 114.080}},
                          Case{"eagle.jpg", 773, 512, {85.228, 81.992, 70.751}}}) {
        SCOPED_TRACE(c.name);
        const vit::Image image = vit::load_image(asset(c.name));
        ASSERT_EQ(image.width, c.w);
        ASSERT_EQ(image.height, c.h);
        ASSERT_EQ(image.rgb.size(), static_cast<size_t>(c.w) * c.h * 3);
        for (int ch = 0; ch < 3; ++ch) {
            double sum = 0;
            for (size_t i = ch; i < image.rgb.size(); i += 3) sum += image.rgb[i];
            EXPECT_NEAR(sum / (static_cast<double>(c.w) * c.h), c.mean[ch], 0.5) << "channel " << ch;
        }
    }
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

// --- files that are not, or not whole, images ---

TEST(ImageErrors, MissingFile) {
    TempDir dir;
    expect_load_error(dir.file("nope.jpg"), "does not exist");
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
    EXPECT_EQ(message, dir.file("list.jpg") + " is not an image vitscope can read (JPEG, PNG, BMP or GIF)");
}

TEST(ImageErrors, UnnamedBytesAreCalledTheImage) {
    const std::string text = "plain text";
    try {
        vit::decode_image(reinterpret_cast<const uint8_t*>(text.data()), text.size());
        FAIL() << "decoded text";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()), "the image is not an image vitscope can read (JPEG, PNG, BMP or GIF)");
    }
}

TEST(ImageErrors, TruncatedJpeg) {
    TempDir dir;
    const Bytes dog = read_bytes(asset("dog.jpg"));
    write_bytes(dir.file("half.jpg"), head(dog, dog.size() / 2));
    expect_load_error(dir.file("half.jpg"), "is truncated (the JPEG ends before its end-of-image marker)");
    write_bytes(dir.file("no_eoi.jpg"), head(dog, dog.size() - 2));
    expect_load_error(dir.file("no_eoi.jpg"), "is truncated");
    write_bytes(dir.file("headers_only.jpg"), head(dog, 300));
    expect_load_error(dir.file("headers_only.jpg"), "JPEG");
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

TEST(ImageErrors, OverPixelLimitRefusedFromHeader) {
    TempDir dir;
    write_bytes(dir.file("photo.png"), png_file(20000, 20000, 8, 2, {}));
    EXPECT_EQ(load_error(dir.file("photo.png")),
              dir.file("photo.png") + ": 20000 x 20000 pixels is over the 64-megapixel limit");

    write_bytes(dir.file("wide.png"), png_file(8001, 8000, 8, 2, {}));
    expect_load_error(dir.file("wide.png"), "8001 x 8000 pixels is over the 64-megapixel limit");
    // 9000 = 0x2328: a JPEG frame header (SOF0), and a GIF screen, with no pixels after them.
    write_bytes(dir.file("big.jpg"), {0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 8, 0x23, 0x28, 0x23, 0x28, 3,
                                      1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0});
    expect_load_error(dir.file("big.jpg"), ": 9000 x 9000 pixels is over the 64-megapixel limit");
    write_bytes(dir.file("big.gif"), {'G', 'I', 'F', '8', '9', 'a', 0x28, 0x23, 0x28, 0x23, 0, 0, 0});
    expect_load_error(dir.file("big.gif"), ": 9000 x 9000 pixels is over the 64-megapixel limit");

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
