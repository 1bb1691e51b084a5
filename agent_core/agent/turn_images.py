"""Images a front end sends with a user turn: checked, bounded and made to fit a request.

A front end such as the Agent SDK holds bytes, not paths, so a turn carries each image
inline as an ``ImageBlock`` (base64 data and its media type). Each must be a PNG, JPEG,
GIF or WebP whose bytes say so, at most ``MAX_IMAGE_BYTES`` decoded; it is then scaled
and re-encoded as the Read tool's images are (agent_core/tools/imagefit.py).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence

from agent_core.errors import MewCodeError
from agent_core.messages import ImageBlock
from agent_core.tools.imagefit import ImageError, fit_image, sniff_image

MEDIA_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
MAX_IMAGE_BYTES = 20 * 1024 * 1024  # one image, decoded
MAX_IMAGES = 20  # in one turn


def turn_images(attachments: Sequence[ImageBlock]) -> list[ImageBlock]:
    """The images ready for the user message; MewCodeError names the first bad one."""
    if len(attachments) > MAX_IMAGES:
        raise MewCodeError(
            f"attachments: {len(attachments)} images; at most {MAX_IMAGES} go with one turn"
        )
    return [_fitted(f"attachments[{i}]", image) for i, image in enumerate(attachments)]


def _fitted(where: str, image: ImageBlock) -> ImageBlock:
    if image.media_type not in MEDIA_TYPES:
        kinds = ", ".join(MEDIA_TYPES)
        raise MewCodeError(f"{where}: media type {image.media_type!r} is not one of {kinds}")
    # Checked before decoding: a huge string is refused without a copy of its bytes.
    if len(image.data) > 4 * ((MAX_IMAGE_BYTES + 2) // 3):
        raise MewCodeError(
            f"{where}: the image is over {MAX_IMAGE_BYTES // (1024 * 1024)} MB, the limit"
        )
    try:
        raw = base64.b64decode(image.data, validate=True)
    except (binascii.Error, ValueError):
        raise MewCodeError(f"{where}: data is not base64") from None
    found = sniff_image(raw[:16])
    if found != image.media_type:
        said = f"a {found}" if found else "no image MewCode knows"
        raise MewCodeError(f"{where}: declared {image.media_type}, but the data is {said}")
    try:
        fitted = fit_image(raw, image.media_type)
    except ImageError as exc:
        raise MewCodeError(f"{where}: {exc}") from None
    return ImageBlock(fitted.media_type, fitted.data, note=fitted.note)
