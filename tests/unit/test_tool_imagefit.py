"""Image fitting (docs/manual.md#tools): as-is when small and opaque, flattened, scaled, rejected."""

from __future__ import annotations

import base64
import io
import struct
import zlib

import pytest
from PIL import Image

from agent_core.tools import imagefit
from agent_core.tools.imagefit import ImageError, fit_image, sniff_image


def encode(img: Image.Image, fmt: str = "PNG") -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt)
    return buf.getvalue()


def decode(data: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(data)))


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"\x89PNG\r\n\x1a\n....", "image/png"),
        (b"\xff\xd8\xff\xe0", "image/jpeg"),
        (b"GIF89a..", "image/gif"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"RIFF\x00\x00\x00\x00WAVEfmt ", None),
        (b"hello", None),
    ],
)
def test_sniff_image(head: bytes, expected: str | None) -> None:
    assert sniff_image(head) == expected


def test_small_opaque_image_is_sent_unchanged() -> None:
    data = encode(Image.new("RGB", (5, 5), "green"))
    fitted = fit_image(data, "image/png")
    assert base64.b64decode(fitted.data) == data and fitted.note == ""


def test_alpha_is_flattened_onto_white() -> None:
    img = Image.new("RGBA", (4, 4), (0, 0, 0, 0))
    img.putpixel((0, 0), (255, 0, 0, 255))
    fitted = fit_image(encode(img), "image/png")
    out = decode(fitted.data)
    assert out.mode == "RGB"
    assert out.getpixel((3, 3)) == (255, 255, 255)
    assert out.getpixel((0, 0)) == (255, 0, 0)


def test_oversized_image_is_scaled_with_a_coordinate_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(imagefit, "MAX_BASE64_BYTES", 20_000)
    monkeypatch.setattr(imagefit, "MAX_SIDE", 100)
    noisy = Image.effect_noise((300, 150), 100).convert("RGB")
    data = encode(noisy)
    assert len(data) > 20_000
    fitted = fit_image(data, "image/png")
    assert decode(fitted.data).size == (100, 50)
    assert fitted.note == "coordinates × 3.00 map back to the original image"
    assert len(fitted.data) < 20_000


def test_image_that_cannot_shrink_enough_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imagefit, "MAX_BASE64_BYTES", 50)
    data = encode(Image.effect_noise((64, 64), 100).convert("RGB"))
    with pytest.raises(ImageError, match="too large"):
        fit_image(data, "image/png")


def test_file_over_50_mb_is_refused_before_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imagefit, "MAX_FILE_BYTES", 10)
    with pytest.raises(ImageError, match="too large"):
        fit_image(b"\x89PNG\r\n\x1a\n" + b"0" * 20, "image/png")


# --- decompression bombs: the header's size is refused before any pixel is decoded ---


def png_header(width: int, height: int) -> bytes:
    """A PNG that is only a signature, an IHDR chunk (correct CRC) and IEND."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr
    chunk += struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk + b"\x00\x00\x00\x00IEND\xaeB`\x82"


def jpeg_header(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width)
    sof += b"\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def gif_header(width: int, height: int, frame: tuple[int, int] | None = None) -> bytes:
    fw, fh = frame or (width, height)
    screen = b"GIF89a" + struct.pack("<HHBBB", width, height, 0, 0, 0)
    descriptor = b"\x2c" + struct.pack("<HHHHB", 0, 0, fw, fh, 0)
    return screen + descriptor + b"\x02\x02\x44\x01\x00\x3b"


def webp_header(width: int, height: int, chunk: str) -> bytes:
    if chunk == "VP8X":
        body = b"\x00\x00\x00\x00" + (width - 1).to_bytes(3, "little")
        body += (height - 1).to_bytes(3, "little")
    elif chunk == "VP8L":
        bits = (width - 1) | ((height - 1) << 14)
        body = b"\x2f" + bits.to_bytes(4, "little") + b"\x00" * 5
    else:
        body = b"\x00\x00\x00\x9d\x01\x2a" + struct.pack("<HH", width, height) + b"\x00" * 4
    data = chunk.encode().ljust(4) + struct.pack("<I", len(body)) + body
    return b"RIFF" + struct.pack("<I", 4 + len(data)) + b"WEBP" + data


BOMBS = {
    "png-20000x20000": (png_header(20000, 20000), "image/png", "20000×20000"),
    # Under Pillow's own bomb limit (89 M pixels), over ours: Pillow alone would decode it.
    "png-8192x8192": (png_header(8192, 8192), "image/png", "8192×8192"),
    "png-64001x1000": (png_header(64001, 1000), "image/png", "64001×1000"),
    "jpeg": (jpeg_header(20000, 20000), "image/jpeg", "20000×20000"),
    "gif": (gif_header(20000, 20000), "image/gif", "20000×20000"),
    # A small logical screen whose first frame is huge: Pillow grows the image to the frame.
    "gif-frame": (gif_header(10, 10, frame=(20000, 20000)), "image/gif", "20000×20000"),
    "webp-vp8x": (webp_header(16000, 16000, "VP8X"), "image/webp", "16000×16000"),
    "webp-vp8l": (webp_header(16000, 16000, "VP8L"), "image/webp", "16000×16000"),
    "webp-vp8": (webp_header(16000, 16000, "VP8 "), "image/webp", "16000×16000"),
}


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow must never see the image: the refusal comes from the header alone
    (pytest.fail is a BaseException: no `except Exception` in the code swallows it)."""

    def refuse(*args: object, **kwargs: object) -> None:
        pytest.fail("Pillow was asked to open an image the header already refuses")

    monkeypatch.setattr(Image, "open", refuse)


@pytest.mark.parametrize("name", list(BOMBS))
def test_an_image_whose_header_declares_too_many_pixels_is_refused_undecoded(
    name: str, no_decoding: None
) -> None:
    data, media_type, size = BOMBS[name]
    with pytest.raises(ImageError) as caught:
        fit_image(data, media_type)
    message = str(caught.value)
    assert size in message and "64,000,000" in message and "\n" not in message


def test_an_image_of_exactly_8000_by_8000_passes_the_header_check() -> None:
    from agent_core.tools.imageheader import header_size

    assert header_size(png_header(8000, 8000)) == (8000, 8000)
    # It gets as far as Pillow, which finds no pixel data in it.
    with pytest.raises(ImageError, match="cannot decode image"):
        fit_image(png_header(8000, 8000), "image/png")


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "WEBP"])
@pytest.mark.parametrize("lossless", [False, True])
def test_the_header_size_is_the_size_pillow_decodes(fmt: str, lossless: bool) -> None:
    from agent_core.tools.imageheader import header_size

    buf = io.BytesIO()
    extra = {"lossless": lossless} if fmt == "WEBP" else {}
    Image.new("RGB", (37, 21), "red").save(buf, format=fmt, **extra)
    assert header_size(buf.getvalue()) == (37, 21)


def test_an_animated_webp_gives_its_canvas_size() -> None:
    from agent_core.tools.imageheader import header_size

    frames = [Image.new("RGB", (30, 20), c) for c in ("red", "blue")]
    buf = io.BytesIO()
    frames[0].save(buf, format="WEBP", save_all=True, append_images=frames[1:])
    assert header_size(buf.getvalue()) == (30, 20)


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00",  # cut inside IHDR
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIDAT" + b"\x00" * 13,  # IHDR not first
        b"\xff\xd8\xff\xda\x00\x02",  # scan data before any frame header
        b"\xff\xd8" + b"\xff\xc0\x00\x11\x08\x00\x00\x00\x10",  # height 0 (set by a DNL later)
        b"GIF89a\x10\x00",  # cut inside the screen descriptor
        b"RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00",  # no start code
    ],
)
def test_a_header_that_gives_no_size_is_refused(data: bytes, no_decoding: None) -> None:
    with pytest.raises(ImageError, match="cannot decode image: "):
        fit_image(data, sniff_image(data[:16]) or "image/png")
