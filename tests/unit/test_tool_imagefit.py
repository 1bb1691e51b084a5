"""Image fitting (docs/manual.md#tools): as-is when small and opaque, flattened, scaled, rejected."""

from __future__ import annotations

import base64
import io

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
