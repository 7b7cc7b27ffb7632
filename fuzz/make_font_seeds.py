"""Writes the seed corpus of fuzz_font: small fonts cut from DejaVu Sans (the
font vitscope draws its figures with), each a few KB, and broken copies.
    /usr/bin/python3 fuzz/make_font_seeds.py DEJAVU_TTF OUT_DIR
A subset keeps a few letters' outlines (simple glyphs, and accented letters,
which DejaVu builds from components) with their metrics, maps them through
cmap formats 4 and 12, and kerns them through kern or GPOS (pair adjustment
formats 1 and 2), so each part of the font that stb_truetype reads is in a
seed. Made at each fuzzing run (scripts/fuzz.sh), as DejaVu is not the
project's to commit."""
import os
import struct
import sys

LETTERS = "AVWTo.aeé1√"  # é and friends are composites in DejaVu


def tables_of(font):
    count = struct.unpack(">H", font[4:6])[0]
    out = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", font[12 + 16 * i:28 + 16 * i])
        out[tag.decode("latin-1")] = font[offset:offset + length]
    return out


def unicode_map(cmap):
    """Code point -> glyph from the font's format 4 subtable (DejaVu has one)."""
    count = struct.unpack(">H", cmap[2:4])[0]
    for i in range(count):
        platform, encoding, offset = struct.unpack(">HHI", cmap[4 + 8 * i:12 + 8 * i])
        if platform == 3 and encoding == 1:
            sub = cmap[offset:]
            segments = struct.unpack(">H", sub[6:8])[0] // 2
            ends = struct.unpack(">%dH" % segments, sub[14:14 + 2 * segments])
            base = 16 + 2 * segments
            starts = struct.unpack(">%dH" % segments, sub[base:base + 2 * segments])
            deltas = struct.unpack(">%dh" % segments, sub[base + 2 * segments:base + 4 * segments])
            range_at = base + 4 * segments
            offsets = struct.unpack(">%dH" % segments, sub[range_at:range_at + 2 * segments])
            out = {}
            for s in range(segments):
                for c in range(starts[s], ends[s] + 1):
                    if c == 0xFFFF:
                        continue
                    if offsets[s] == 0:
                        g = (c + deltas[s]) & 0xFFFF
                    else:
                        at = range_at + 2 * s + offsets[s] + 2 * (c - starts[s])
                        g = struct.unpack(">H", sub[at:at + 2])[0]
                        g = (g + deltas[s]) & 0xFFFF if g else 0
                    out[c] = g
            return out
    raise SystemExit("no Windows Unicode cmap in the font")


def glyph_data(t, g):
    long_loca = struct.unpack(">h", t["head"][50:52])[0] == 1
    if long_loca:
        a, b = struct.unpack(">II", t["loca"][4 * g:4 * g + 8])
    else:
        a, b = (2 * v for v in struct.unpack(">HH", t["loca"][2 * g:2 * g + 4]))
    return t["glyf"][a:b]


def components(data):
    """(offset of each component's glyph index, that index) in a composite glyph."""
    out, p, more = [], 10, True
    while more:
        flags, g = struct.unpack(">HH", data[p:p + 4])
        out.append((p + 2, g))
        p += 4 + (4 if flags & 1 else 2)
        p += 2 if flags & 8 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0
        more = flags & 0x20
    return out


def hmetric(t, g):
    long_count = struct.unpack(">H", t["hhea"][34:36])[0]
    advance = struct.unpack(">H", t["hmtx"][4 * min(g, long_count - 1):][:2])[0]
    bearing_at = 4 * g + 2 if g < long_count else 4 * long_count + 2 * (g - long_count)
    return advance, struct.unpack(">h", t["hmtx"][bearing_at:bearing_at + 2])[0]


def cmap_format4(mapping):
    codes = sorted(mapping)
    segs = [(c, c, (mapping[c] - c) & 0xFFFF) for c in codes] + [(0xFFFF, 0xFFFF, 1)]
    n = len(segs)
    search = 2 * (1 << (n.bit_length() - 1))
    body = struct.pack(">HHHH", 2 * n, search, search.bit_length() - 2, 2 * n - search)
    body += struct.pack(">%dH" % n, *(s[1] for s in segs)) + b"\0\0"
    body += struct.pack(">%dH" % n, *(s[0] for s in segs))
    body += struct.pack(">%dH" % n, *(s[2] for s in segs)) + struct.pack(">%dH" % n, *([0] * n))
    return struct.pack(">HHH", 4, 6 + len(body), 0) + body


def cmap_format12(mapping):
    groups = b"".join(struct.pack(">III", c, c, mapping[c]) for c in sorted(mapping))
    return struct.pack(">HHIII", 12, 0, 16 + len(groups), 0, len(mapping)) + groups


def coverage(glyphs, fmt):
    if fmt == 1:
        return struct.pack(">HH", 1, len(glyphs)) + struct.pack(">%dH" % len(glyphs), *glyphs)
    ranges = b"".join(struct.pack(">HHH", g, g, i) for i, g in enumerate(glyphs))
    return struct.pack(">HH", 2, len(glyphs)) + ranges


def gpos(pairs, glyph_count):
    """One pair-adjustment lookup with a format 1 and a format 2 subtable (advance-only values)."""
    firsts = sorted({a for a, _ in pairs})
    sets = [sorted((b, v) for a, b, v in [(a, b, v) for (a, b), v in pairs.items()] if a == f) for f in firsts]
    head = 10 + 2 * len(firsts)
    set_bytes, offsets = b"", []
    for s in sets:
        offsets.append(head + len(set_bytes))
        set_bytes += struct.pack(">H", len(s)) + b"".join(struct.pack(">Hh", b, v) for b, v in s)
    cov1 = coverage(firsts, 1)
    fmt1 = struct.pack(">HHHHH", 1, head + len(set_bytes), 4, 0, len(firsts)) + struct.pack(">%dH" % len(firsts), *offsets)
    fmt1 += set_bytes + cov1
    # Format 2: class 1 for the first glyph of each pair, class 1 for the second, one kerning value.
    cls1 = struct.pack(">HHH", 1, 0, glyph_count) + b"".join(struct.pack(">H", 1 if g in firsts else 0) for g in range(glyph_count))
    seconds = sorted({b for _, b in pairs})
    cls2 = struct.pack(">HH", 2, len(seconds)) + b"".join(struct.pack(">HHH", g, g, 1) for g in seconds)
    records = struct.pack(">4h", 0, 0, 0, -40)
    top = 16 + len(records)
    fmt2 = struct.pack(">HHHHHHHH", 2, top + len(cls1) + len(cls2), 4, 0, top, top + len(cls1), 2, 2)
    fmt2 += records + cls1 + cls2 + coverage(firsts, 2)
    lookup = struct.pack(">HHHHH", 2, 0, 2, 10, 10 + len(fmt1)) + fmt1 + fmt2
    lookup_list = struct.pack(">HH", 1, 4) + lookup
    return struct.pack(">HHHHH", 1, 0, 10, 10, 10) + lookup_list


def font_file(tables):
    tags = sorted(tables)
    offset = 12 + 16 * len(tags)
    directory, body = b"", b""
    for tag in tags:
        data = tables[tag]
        directory += struct.pack(">4sIII", tag.encode("latin-1"), 0, offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    n = len(tags)
    search = 16 * (1 << (n.bit_length() - 1))
    return struct.pack(">IHHHH", 0x10000, n, search, (search // 16).bit_length() - 1, 16 * n - search) + directory + body


def subset(t, full_map):
    wanted = [0] + [full_map[ord(c)] for c in LETTERS if ord(c) in full_map]
    order = []
    while wanted:  # components after their composites, each glyph once
        g = wanted.pop(0)
        if g in order:
            continue
        order.append(g)
        data = glyph_data(t, g)
        if data and struct.unpack(">h", data[:2])[0] < 0:
            wanted += [c for _, c in components(data)]
    new = {g: i for i, g in enumerate(order)}
    glyf, loca, hmtx = b"", [0], b""
    for g in order:
        data = bytearray(glyph_data(t, g))
        if data and struct.unpack(">h", data[:2])[0] < 0:
            for at, c in components(bytes(data)):
                data[at:at + 2] = struct.pack(">H", new[c])
        glyf += bytes(data) + b"\0" * (len(data) % 2)
        loca.append(len(glyf))
        hmtx += struct.pack(">Hh", *hmetric(t, g))
    n = len(order)
    mapping = {ord(c): new[full_map[ord(c)]] for c in LETTERS if ord(c) in full_map}
    head = bytearray(t["head"])
    head[50:52] = struct.pack(">h", 1)
    hhea = bytearray(t["hhea"])
    hhea[34:36] = struct.pack(">H", n)
    maxp = bytearray(t["maxp"])
    maxp[4:6] = struct.pack(">H", n)
    f4, f12 = cmap_format4(mapping), cmap_format12(mapping)
    # stb_truetype takes the last Unicode subtable: format 12 where both are, else format 4.
    cmap_both = struct.pack(">HHHHIHHI", 0, 2, 3, 1, 20, 3, 10, 20 + len(f4)) + f4 + f12
    cmap_4 = struct.pack(">HHHHI", 0, 1, 3, 1, 12) + f4
    g = lambda c: mapping[ord(c)]  # noqa: E731
    pairs = {(g("A"), g("V")): -80, (g("V"), g("A")): -80, (g("T"), g("o")): -120, (g("W"), g("a")): -50}
    kern_pairs = sorted(pairs.items())
    kern = struct.pack(">HHHHHHHHH", 0, 1, 0, 14 + 6 * len(kern_pairs), 1, len(kern_pairs), 12, 2, 0)
    kern += b"".join(struct.pack(">HHh", a, b, v) for (a, b), v in kern_pairs)
    base = {"head": bytes(head), "hhea": bytes(hhea), "maxp": bytes(maxp), "hmtx": hmtx, "cmap": cmap_4,
            "loca": struct.pack(">%dI" % len(loca), *loca), "glyf": glyf}
    return base, cmap_both, kern, gpos(pairs, n)


def main():
    dejavu, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    font = open(dejavu, "rb").read()
    t = tables_of(font)
    base, cmap_both, kern, gpos_table = subset(t, unicode_map(t["cmap"]))
    seeds = {"subset_gpos.ttf": font_file(dict(base, GPOS=gpos_table, cmap=cmap_both)),
             "subset_kern.ttf": font_file(dict(base, kern=kern)),
             "subset_plain.ttf": font_file(base)}
    whole = seeds["subset_gpos.ttf"]
    # A collection holding the subset, as stb_truetype finds its first font.
    ttc_header = struct.pack(">4sIII", b"ttcf", 0x10000, 1, 16)
    shifted = bytearray(whole)
    count = struct.unpack(">H", whole[4:6])[0]
    for i in range(count):
        at = 12 + 16 * i + 8
        shifted[at:at + 4] = struct.pack(">I", struct.unpack(">I", whole[at:at + 4])[0] + 16)
    seeds["collection.ttc"] = ttc_header + bytes(shifted)
    # Broken copies: cut after the table directory, in the middle, one byte short.
    seeds["cut_after_directory.ttf"] = whole[:12 + 16 * count]
    seeds["cut_half.ttf"] = whole[:len(whole) // 2]
    seeds["cut_one_short.ttf"] = whole[:-1]
    # DejaVu Sans itself, cut where its own table directory ends and a little further.
    seeds["dejavu_directory.ttf"] = font[:12 + 16 * struct.unpack(">H", font[4:6])[0] + 64]
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
