"""Making an image fit a model request (docs/manual.md#tools): size limits, alpha, scaling."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

from agent_core.errors import MewCodeError
from agent_core.tools.imageheader import header_size

MAX_FILE_BYTES = 50 * 1024 * 1024
# Decoding allocates every pixel: a few kilobytes of header may ask for gigabytes.
MAX_PIXELS = 8000 * 8000
MAX_BASE64_BYTES = 5 * 1024 * 1024
MAX_SIDE = 2000
JPEG_QUALITIES = (85, 70, 55, 40, 25)

_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


class ImageError(MewCodeError):
    """An image that cannot be read or made small enough to send."""


@dataclass(frozen=True)
class FittedImage:
    """An image ready for a content block: base64 data, its type, and a note for the model."""

    media_type: str
    data: str
    note: str = ""


def sniff_image(head: bytes) -> str | None:
    """The media type of a PNG, JPEG, GIF or WebP from its first bytes, else None."""
    for magic, media_type in _MAGIC:
        if head.startswith(magic):
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def _b64_size(n: int) -> int:
    return 4 * ((n + 2) // 3)


def fit_image(data: bytes, media_type: str) -> FittedImage:
    """The image as is when small and opaque; else flattened, scaled and re-encoded."""
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"image is too large ({len(data)} bytes; the limit is 50 MB)")
    size = header_size(data)
    if size is None:
        raise ImageError("cannot decode image: its header does not say its size")
    _check_pixels(size)
    from PIL import Image  # Pillow is heavy: load it only when an image needs work

    try:
        img: Image.Image = Image.open(io.BytesIO(data))  # reads the header only
    except Exception as exc:  # Pillow raises many types for corrupt files
        raise ImageError(f"cannot decode image: {exc}") from None
    _check_pixels(img.size)  # Pillow's own reading of the header, before any pixel
    try:
        img.load()
    except Exception as exc:  # Pillow raises many types for corrupt files
        raise ImageError(f"cannot decode image: {exc}") from None
    has_alpha = img.has_transparency_data
    if not has_alpha and _b64_size(len(data)) < MAX_BASE64_BYTES:
        return FittedImage(media_type, base64.b64encode(data).decode("ascii"))
    if has_alpha:
        img = _flatten(img, Image)
        encoded = _encode(img, "PNG", None)
        if _b64_size(len(encoded)) < MAX_BASE64_BYTES:
            return FittedImage("image/png", base64.b64encode(encoded).decode("ascii"))
    elif img.mode not in ("RGB", "L"):
        img = img.convert("RGB")
    width, height = img.size
    scale = max(width / MAX_SIDE, height / MAX_SIDE, 1.0)
    if scale > 1.0:
        size = (max(1, round(width / scale)), max(1, round(height / scale)))
        img = img.resize(size, Image.Resampling.LANCZOS)
    note = f"coordinates × {scale:.2f} map back to the original image" if scale > 1.0 else ""
    attempts = [("PNG", None)] + [("JPEG", q) for q in JPEG_QUALITIES]
    for fmt, quality in attempts:
        encoded = _encode(img, fmt, quality)
        if _b64_size(len(encoded)) < MAX_BASE64_BYTES:
            kind = "image/png" if fmt == "PNG" else "image/jpeg"
            return FittedImage(kind, base64.b64encode(encoded).decode("ascii"), note)
    raise ImageError("image is too large to send even after scaling it down")


def _check_pixels(size: tuple[int, int]) -> None:
    width, height = size
    if width * height > MAX_PIXELS:
        raise ImageError(
            f"image is {width}×{height} pixels; at most {MAX_PIXELS:,} (8000×8000) are decoded"
        )


def _flatten(img, image_module):
    """The image composited onto a white background (models reject or misread alpha)."""
    rgba = img.convert("RGBA")
    background = image_module.new("RGB", rgba.size, "white")
    background.paste(rgba, mask=rgba.getchannel("A"))
    return background


def _encode(img, fmt: str, quality: int | None) -> bytes:
    buf = io.BytesIO()
    if quality is None:
        img.save(buf, format=fmt)
    else:
        img.save(buf, format=fmt, quality=quality)
    return buf.getvalue()
