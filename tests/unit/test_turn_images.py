"""Images sent with a user turn: what is accepted, and the one line naming what is not."""

from __future__ import annotations

import base64
import io
import os

import pytest
from PIL import Image

from agent_core.agent.turn_images import MAX_IMAGES, turn_images
from agent_core.errors import MewCodeError
from agent_core.messages import ImageBlock
from agent_core.tools.imagefit import MAX_BASE64_BYTES


def encoded(fmt: str, size: tuple[int, int] = (4, 3)) -> str:
    buf = io.BytesIO()
    Image.new("RGB", size, "red").save(buf, format=fmt)
    return base64.b64encode(buf.getvalue()).decode("ascii")


@pytest.mark.parametrize(
    ("fmt", "media_type"),
    [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")],
)
def test_each_supported_kind_is_sent_as_it_came(fmt: str, media_type: str) -> None:
    data = encoded(fmt)
    assert turn_images([ImageBlock(media_type, data)]) == [ImageBlock(media_type, data)]


@pytest.mark.parametrize(
    ("image", "said"),
    [
        (ImageBlock("image/bmp", encoded("BMP")), "attachments[0]: media type 'image/bmp' is not"),
        (ImageBlock("image/png", "not base64!"), "attachments[0]: data is not base64"),
        (
            ImageBlock("image/png", encoded("JPEG")),
            "declared image/png, but the data is a image/jpeg",
        ),
        (ImageBlock("image/gif", base64.b64encode(b"hello").decode()), "no image MewCode knows"),
        (ImageBlock("image/png", "A" * (28 * 1024 * 1024)), "over 20 MB, the limit"),
    ],
)
def test_a_bad_image_is_refused_in_one_line_naming_it(image: ImageBlock, said: str) -> None:
    with pytest.raises(MewCodeError) as caught:
        turn_images([ImageBlock("image/png", encoded("PNG")), image][1:])
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_the_position_of_the_bad_image_is_named() -> None:
    good = ImageBlock("image/png", encoded("PNG"))
    with pytest.raises(MewCodeError, match=r"^attachments\[1\]: "):
        turn_images([good, ImageBlock("image/png", "")])


def test_too_many_images_are_refused() -> None:
    good = ImageBlock("image/png", encoded("PNG"))
    with pytest.raises(MewCodeError, match=f"at most {MAX_IMAGES}"):
        turn_images([good] * (MAX_IMAGES + 1))


def test_an_image_over_the_request_limit_is_made_to_fit() -> None:
    noise = Image.frombytes("RGB", (1400, 1400), os.urandom(1400 * 1400 * 3))
    buf = io.BytesIO()
    noise.save(buf, format="PNG")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    assert len(data) > MAX_BASE64_BYTES
    fitted = turn_images([ImageBlock("image/png", data)])
    assert len(fitted[0].data) < MAX_BASE64_BYTES


def test_an_attached_png_declaring_20000_by_20000_pixels_is_refused_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.unit.test_tool_imagefit import png_header

    def refuse(*args: object, **kwargs: object) -> None:
        pytest.fail("the image was handed to Pillow")

    monkeypatch.setattr(Image, "open", refuse)
    bomb = ImageBlock("image/png", base64.b64encode(png_header(20000, 20000)).decode())
    with pytest.raises(MewCodeError) as caught:
        turn_images([bomb])
    assert str(caught.value) == (
        "attachments[0]: image is 20000×20000 pixels; at most 64,000,000 (8000×8000) are decoded"
    )
