"""MkDocs hook: serve the repository's screenshots/ (kept beside the code) as docs/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def on_files(files: Files, config: Any) -> Files:
    for svg in sorted(SCREENSHOTS.glob("*.svg")):
        files.append(
            File(
                f"screenshots/{svg.name}",
                src_dir=str(SCREENSHOTS.parent),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files
