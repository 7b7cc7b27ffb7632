"""An animated GIF's frames as giflib itself decodes them (ctypes on Debian's
libgif.so.7, the library vitscope writes with): DGifSlurp, then each frame's
indices through its own (or the global) palette onto the canvas, as RGB arrays.
Used by the sweep colour test so the check does not lean on PIL's decoder."""
import ctypes
import ctypes.util

import numpy as np


class GifColorType(ctypes.Structure):
    _fields_ = [("Red", ctypes.c_ubyte), ("Green", ctypes.c_ubyte), ("Blue", ctypes.c_ubyte)]


class ColorMapObject(ctypes.Structure):
    _fields_ = [("ColorCount", ctypes.c_int), ("BitsPerPixel", ctypes.c_int), ("SortFlag", ctypes.c_bool),
                ("Colors", ctypes.POINTER(GifColorType))]


class GifImageDesc(ctypes.Structure):
    _fields_ = [("Left", ctypes.c_int), ("Top", ctypes.c_int), ("Width", ctypes.c_int), ("Height", ctypes.c_int),
                ("Interlace", ctypes.c_bool), ("ColorMap", ctypes.POINTER(ColorMapObject))]


class SavedImage(ctypes.Structure):
    _fields_ = [("ImageDesc", GifImageDesc), ("RasterBits", ctypes.POINTER(ctypes.c_ubyte)),
                ("ExtensionBlockCount", ctypes.c_int), ("ExtensionBlocks", ctypes.c_void_p)]


class GifFileType(ctypes.Structure):  # giflib 5.2's gif_lib.h
    _fields_ = [("SWidth", ctypes.c_int), ("SHeight", ctypes.c_int), ("SColorResolution", ctypes.c_int),
                ("SBackGroundColor", ctypes.c_int), ("AspectByte", ctypes.c_ubyte),
                ("SColorMap", ctypes.POINTER(ColorMapObject)), ("ImageCount", ctypes.c_int),
                ("Image", GifImageDesc), ("SavedImages", ctypes.POINTER(SavedImage)),
                ("ExtensionBlockCount", ctypes.c_int), ("ExtensionBlocks", ctypes.c_void_p),
                ("Error", ctypes.c_int), ("UserData", ctypes.c_void_p), ("Private", ctypes.c_void_p)]


def _lib():
    lib = ctypes.CDLL(ctypes.util.find_library("gif") or "libgif.so.7")
    lib.DGifOpenFileName.restype = ctypes.POINTER(GifFileType)
    lib.DGifOpenFileName.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
    lib.DGifSlurp.argtypes = [ctypes.POINTER(GifFileType)]
    lib.DGifCloseFile.argtypes = [ctypes.POINTER(GifFileType), ctypes.POINTER(ctypes.c_int)]
    return lib


def _palette(cmap):
    c = cmap.contents
    return np.array([[c.Colors[i].Red, c.Colors[i].Green, c.Colors[i].Blue] for i in range(c.ColorCount)],
                    dtype=np.uint8)


def gif_frames(path):
    """[(H x W x 3 uint8, palette size)] for every frame, composited onto the canvas (vitscope's frames
    cover it whole, so composition is a copy)."""
    lib = _lib()
    err = ctypes.c_int(0)
    gif = lib.DGifOpenFileName(path.encode(), ctypes.byref(err))
    if not gif:
        raise RuntimeError(f"giflib cannot open {path}: error {err.value}")
    try:
        if lib.DGifSlurp(gif) != 1:
            raise RuntimeError(f"giflib cannot read {path}: error {gif.contents.Error}")
        g = gif.contents
        canvas = np.zeros((g.SHeight, g.SWidth, 3), dtype=np.uint8)
        frames = []
        for i in range(g.ImageCount):
            image = g.SavedImages[i]
            d = image.ImageDesc
            cmap = d.ColorMap if d.ColorMap else g.SColorMap
            palette = _palette(cmap)
            bits = np.ctypeslib.as_array(image.RasterBits, shape=(d.Height * d.Width,)).copy()
            canvas[d.Top:d.Top + d.Height, d.Left:d.Left + d.Width] = palette[bits].reshape(d.Height, d.Width, 3)
            frames.append((canvas.copy(), len(palette)))
        return frames
    finally:
        lib.DGifCloseFile(gif, ctypes.byref(err))
