"""Reading a formula's icon from a file: PNG or JPEG only, checked by content, not name."""

from __future__ import annotations

from pathlib import Path

from console.files import read_small_file
from console.models import decode_icon, icon_data_url
from console.tui.forms.fields import format_size

ICON_MAX_BYTES = 1024 * 1024
_SUFFIXES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
_SIGNATURES = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff"}


class IconError(ValueError):
    """The file cannot be an icon; the message says why, for a person."""


def read_icon(path_text: str) -> tuple[str, str]:
    """Reads the file (blocking: call in a thread); returns (data URL, "name (12.3 KB)")."""
    path = Path(path_text.strip()).expanduser()
    media_type = _SUFFIXES.get(path.suffix.lower())
    if media_type is None:
        raise IconError(f"{path.name or path_text}: the icon must be a .png, .jpg or .jpeg file.")
    data = read_small_file(path, ICON_MAX_BYTES, IconError)
    if not data:
        raise IconError(f"{path.name} is empty.")
    actual = next((t for t, sig in _SIGNATURES.items() if data.startswith(sig)), None)
    if actual is None:
        raise IconError(f"{path.name} is not a PNG or JPEG image (its content says otherwise).")
    return icon_data_url(actual, data), f"{path.name} ({format_size(len(data))})"


def describe_icon(data_url: str | None) -> str:
    """The current icon in words: `image/png (12.3 KB)`, or `No icon.`."""
    if not data_url:
        return "No icon."
    try:
        media_type, data = decode_icon(data_url)
    except ValueError:
        return "An icon the console cannot read."
    return f"Current icon: {media_type} ({format_size(len(data))})"
