"""Writes the seed corpus of fuzz_image: small photos in every format and
flavour vitscope reads (and a few it must refuse clearly), each under 2 KB.
    /usr/bin/python3 fuzz/make_image_seeds.py OUT_DIR
Made from a synthetic gradient, no photo. Needs python3-pil."""
import io
import os
import struct
import sys
import zlib

from PIL import Image


def picture(w, h, mode="RGB"):
    im = Image.new("RGB", (w, h))
    im.putdata([((x * 255) // max(1, w - 1), (y * 255) // max(1, h - 1), ((x + y) * 40) % 256)
                for y in range(h) for x in range(w)])
    return im.convert(mode) if mode != "RGB" else im


def save(out, name, im, fmt, **kw):
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    with open(os.path.join(out, name), "wb") as f:
        f.write(buf.getvalue())


def png_rgb16(w, h):
    """A 16-bit-per-channel RGB PNG, which PIL cannot write."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"".join(struct.pack(">HHH", x * 5000, y * 7000, (x + y) * 3000)
                                     for x in range(w)) for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    p = picture(12, 9)
    save(out, "rgb.png", p, "PNG")
    save(out, "grey.png", p.convert("L"), "PNG")
    save(out, "grey_alpha.png", p.convert("LA"), "PNG")
    save(out, "rgba.png", p.convert("RGBA"), "PNG")
    save(out, "palette.png", p.convert("P"), "PNG")
    save(out, "grey16.png", p.convert("I").point(lambda v: v * 257), "PNG")
    with open(os.path.join(out, "rgb16.png"), "wb") as f:
        f.write(png_rgb16(6, 5))
    save(out, "one_bit.png", p.convert("1"), "PNG")
    save(out, "baseline.jpg", p, "JPEG", quality=80)
    save(out, "progressive.jpg", p, "JPEG", quality=80, progressive=True)
    save(out, "grey.jpg", p.convert("L"), "JPEG", quality=80)
    save(out, "cmyk.jpg", p.convert("CMYK"), "JPEG", quality=80)
    save(out, "subsampled_420.jpg", picture(17, 13), "JPEG", quality=70, subsampling=2)
    save(out, "one_pixel.png", picture(1, 1), "PNG")
    save(out, "wide.png", picture(64, 2), "PNG")
    save(out, "rgb24.bmp", p, "BMP")
    save(out, "palette8.bmp", p.convert("P"), "BMP")
    save(out, "rgba32.bmp", p.convert("RGBA"), "BMP")
    save(out, "still.gif", p.convert("P"), "GIF")
    frames = [picture(10, 8).convert("P"), picture(10, 8).transpose(Image.FLIP_LEFT_RIGHT).convert("P")]
    save(out, "animated.gif", frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    # EXIF: a photo stored sideways (orientation 6, turned upright when opened), in JPEG and WebP.
    exif = Image.Exif()
    exif[0x0112] = 6
    save(out, "exif_orientation_6.jpg", p, "JPEG", quality=80, exif=exif.tobytes())
    save(out, "exif_orientation_6.webp", p, "WEBP", lossless=True, exif=exif.tobytes())
    save(out, "lossy.webp", picture(17, 13), "WEBP", quality=60)
    save(out, "lossless_alpha.webp", p.convert("RGBA"), "WEBP", lossless=True)
    save(out, "animated.webp", frames[0].convert("RGB"), "WEBP", save_all=True,
         append_images=[frames[1].convert("RGB")], duration=100, quality=50)


if __name__ == "__main__":
    main()
