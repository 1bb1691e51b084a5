"""An image's pixel size read from its header, without decoding it (pure).

A few kilobytes can declare billions of pixels; imagefit.py refuses those before Pillow
allocates them. PNG: the IHDR chunk, which must come first. JPEG: the first frame header
(SOFn). GIF: the logical screen, grown to the first frame (Pillow grows it too). WebP:
the canvas of VP8X, or the frame size of VP8L or VP8. A header that does not say,
exactly, gives None: the caller refuses the image (fail closed).
"""

from __future__ import annotations

import struct

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# SOF0-SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range.
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Markers with no length field after them.
_JPEG_BARE = frozenset({0x01, *range(0xD0, 0xD9)})


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the header of a PNG, JPEG, GIF or WebP declares it, else None."""
    try:
        if data.startswith(PNG_SIGNATURE):
            return _png(data)
        if data.startswith(b"\xff\xd8"):
            return _jpeg(data)
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return _gif(data)
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp(data)
    except (IndexError, struct.error):  # cut short: no size
        return None
    return None


def _positive(width: int, height: int) -> tuple[int, int] | None:
    return (width, height) if width > 0 and height > 0 else None


def _png(data: bytes) -> tuple[int, int] | None:
    if data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return _positive(width, height)


def _jpeg(data: bytes) -> tuple[int, int] | None:
    at = 2
    while True:
        if data[at] != 0xFF:
            return None  # not at a marker: a broken or hostile stream
        while data[at] == 0xFF:  # fill bytes may pad a marker
            at += 1
        marker = data[at]
        at += 1
        if marker in _JPEG_BARE:
            continue
        if marker in (0xD9, 0xDA):  # end of image, or scan data before any frame header
            return None
        (length,) = struct.unpack(">H", data[at : at + 2])
        if marker in _JPEG_SOF:
            height, width = struct.unpack(">HH", data[at + 3 : at + 7])
            return _positive(width, height)  # height 0: set later by a DNL marker
        if length < 2:
            return None
        at += length


def _gif(data: bytes) -> tuple[int, int] | None:
    width, height, flags = struct.unpack("<HHB", data[6:11])
    at = 13
    if flags & 0x80:  # a global colour table follows the screen descriptor
        at += 3 << ((flags & 7) + 1)
    while True:
        block = data[at]
        if block == 0x2C:  # the first image descriptor
            left, top, fw, fh = struct.unpack("<HHHH", data[at + 1 : at + 9])
            return _positive(max(width, left + fw), max(height, top + fh))
        if block != 0x21:  # the trailer, or not a GIF block: no frame
            return None
        at += 2  # introducer and label, then sub-blocks up to an empty one
        while (size := data[at]) != 0:
            at += size + 1
        at += 1


def _webp(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    body = data[20:]
    if chunk == b"VP8X":
        width = int.from_bytes(body[4:7], "little") + 1
        height = int.from_bytes(body[7:10], "little") + 1
        return (width, height) if len(body) >= 10 else None
    if chunk == b"VP8L":
        if body[0] != 0x2F or len(body) < 5:
            return None
        bits = int.from_bytes(body[1:5], "little")
        return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    if chunk == b"VP8 ":
        if body[3:6] != b"\x9d\x01\x2a":
            return None
        width, height = struct.unpack("<HH", body[6:10])
        return _positive(width & 0x3FFF, height & 0x3FFF)
    return None
