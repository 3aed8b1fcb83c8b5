"""Run the user's own editor ($VISUAL, $EDITOR, else vi) on a piece of text.

Pure process handling, no Textual: the code editor suspends the app around `edit_text`.
`edit_text` never raises, because an exception escaping `App.suspend()` would leave the terminal
out of application mode.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

FALLBACK_EDITOR = "vi"
DETACHED_TIMEOUT = 120.0
"""Seconds an editor may run without a terminal (headless, tests) before it is given up on."""


class EditorNotFound(Exception):
    """No usable editor command; str() is the sentence to show."""


@dataclass(frozen=True, slots=True)
class EditOutcome:
    """The edited text, or why there is none (the text is then left as it was)."""

    text: str | None
    error: str | None = None


def editor_command(environ: dict[str, str] | None = None) -> list[str]:
    """The editor's argv from $VISUAL, then $EDITOR, then vi; raises EditorNotFound."""
    environ = dict(os.environ) if environ is None else environ
    source = "the default"
    argv = [FALLBACK_EDITOR]
    for variable in ("VISUAL", "EDITOR"):
        value = environ.get(variable, "").strip()
        if value:
            try:
                argv = shlex.split(value)
            except ValueError as error:
                raise EditorNotFound(f"${variable} cannot be read as a command: {error}.") from None
            source = f"${variable}"
            break
    if not argv or shutil.which(argv[0]) is None:
        name = argv[0] if argv else ""
        raise EditorNotFound(
            f"The editor {name!r} ({source}) was not found. "
            "Set $VISUAL or $EDITOR to an installed editor, for example EDITOR=nano."
        )
    return argv


def edit_text(command: list[str], text: str, *, attached: bool) -> EditOutcome:
    """Write text to a temporary .js file, run the editor on it, read it back, delete it.

    attached: the editor owns the terminal (app suspended). Detached (no terminal to lend),
    it gets no input and a time limit, so an interactive editor cannot hang the app.
    """
    name = command[0]
    try:
        descriptor, temp_name = tempfile.mkstemp(prefix="tenant-console-", suffix=".js")
    except OSError as error:
        return EditOutcome(None, f"Could not create a temporary file: {error.strerror}.")
    temp_path = Path(temp_name)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        completed = _run(command, temp_path, attached=attached)
        if isinstance(completed, str):
            return EditOutcome(None, completed)
        if completed.returncode != 0:
            return EditOutcome(
                None,
                f"{name} exited with status {completed.returncode}; the code is unchanged.",
            )
        try:
            edited = temp_path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return EditOutcome(None, f"{name} saved text that is not UTF-8; the code is unchanged.")
        except OSError as error:
            return EditOutcome(None, f"Could not read the edited file back: {error.strerror}.")
        return EditOutcome(_keep_final_newline_as(text, edited))
    except OSError as error:
        return EditOutcome(None, f"Could not write the temporary file: {error.strerror}.")
    finally:
        temp_path.unlink(missing_ok=True)


def _run(
    command: list[str], path: Path, *, attached: bool
) -> subprocess.CompletedProcess[bytes] | str:
    """The finished process, or a sentence saying why it did not run to the end."""
    try:
        if attached:
            return subprocess.run([*command, str(path)], check=False)
        return subprocess.run(
            [*command, str(path)],
            check=False,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=DETACHED_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return (
            f"{command[0]} did not finish within {DETACHED_TIMEOUT:.0f} s; the code is unchanged."
        )
    except OSError as error:
        return f"Could not start {command[0]}: {error.strerror}."


def _keep_final_newline_as(original: str, edited: str) -> str:
    """Editors such as vi add a final newline; do not count that as a change."""
    if original.endswith("\n"):
        return edited
    for newline in ("\r\n", "\n"):
        if edited.endswith(newline) and not edited.endswith(newline * 2):
            return edited[: -len(newline)]
    return edited
