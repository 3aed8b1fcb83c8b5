"""The profiles file: a TOML file of profile names, base URLs and the active profile.

It never holds an API key: those live in the OS keyring (`console.profiles.keys`), or come
from an environment variable or a command the profile names (`console.profiles.key_source`).
It is written atomically with mode 0600, and a damaged file is reported with its line and
never overwritten.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from console.models.contract import DEFAULT_KEY_HEADER, checked_header_name

APP_NAME = "tenant-console"
CONFIG_DIR_ENV = "TENANT_CONSOLE_CONFIG_DIR"
CONFIG_FILE_NAME = "config.toml"

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_PROFILE_FIELDS = {
    "base_url",
    "key_header",
    "label",
    "color",
    "tenant_name",
    "key_env",
    "key_command",
    "rate_limit",
}
ENV_NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
COLORS = ("red", "orange", "yellow", "green", "cyan", "blue", "magenta", "white")
"""The colours a profile's label may have (the header shows the label in it)."""
LABEL_MAX = 16
_SECRET_FIELDS = {"key", "api_key", "apikey", "token", "secret", "password"}


class ProfileError(Exception):
    """A problem with a profile that the user can fix; str() is one clear line."""


class ConfigError(ProfileError):
    """The profiles file cannot be used as it is; it names the file and, when known, the line."""

    def __init__(self, path: Path, line: int | None, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}, line {self.line}" if self.line else f"{self.path}"
        return (
            f"Damaged profiles file {where}: {self.message}. "
            "Fix or remove the file; it was left unchanged."
        )


@dataclass(frozen=True)
class Profile:
    """One tenant to administer: a name and the base URL of its administration API."""

    name: str
    base_url: str
    label: str | None = None
    """A short tag shown in the console's header (e.g. PROD), in `color`."""
    color: str | None = None
    tenant_name: str | None = None
    """The tenant's name as last seen by the console: the profile picker shows it."""
    key_header: str | None = None
    """The header the service reads the key from; None for the default, SVC-API-KEY."""
    key_env: str | None = None
    """An environment variable the key is read from, instead of the keyring."""
    key_command: str | None = None
    """A command that prints the key (like git's credential helpers), instead of the keyring."""
    rate_limit: int | None = None
    """Requests a minute the console sends at most with this profile's key; None for the
    hosted service's management limit (console.client.budget.DEFAULT_PER_MINUTE, 200)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", validate_name(self.name))
        object.__setattr__(self, "base_url", normalize_base_url(self.base_url))
        object.__setattr__(self, "label", validate_label(self.label))
        object.__setattr__(self, "color", validate_color(self.color))
        if self.tenant_name is not None and not isinstance(self.tenant_name, str):
            raise ProfileError(f"Invalid tenant name {self.tenant_name!r}: it must be text.")
        if self.key_header is not None:
            try:
                header = checked_header_name(self.key_header)
            except ValueError as error:
                raise ProfileError(f"Invalid key header: {error}") from None
            object.__setattr__(self, "key_header", None if header == DEFAULT_KEY_HEADER else header)
        object.__setattr__(self, "key_env", validate_key_env(self.key_env))
        object.__setattr__(self, "key_command", validate_key_command(self.key_command))
        if self.key_env is not None and self.key_command is not None:
            raise ProfileError(
                "Invalid key source: a profile takes its key from an environment variable or "
                "a command, not both."
            )
        object.__setattr__(self, "rate_limit", validate_rate_limit(self.rate_limit))

    @property
    def key_from_keyring(self) -> bool:
        """Whether the key lives in the OS keyring (no variable or command named instead)."""
        return self.key_env is None and self.key_command is None

    @property
    def header(self) -> str:
        """The key header in use: the profile's own, or the default."""
        return self.key_header or DEFAULT_KEY_HEADER


def validate_rate_limit(value: object) -> int | None:
    """A whole number of requests a minute, at least 1, or None (the default)."""
    if value is None:
        return None
    if type(value) is not int or value < 1:
        raise ProfileError(
            f"Invalid rate limit {value!r}: a whole number of requests a minute, at least 1."
        )
    return value


def validate_label(label: str | None) -> str | None:
    """A label of 1 to 16 printable characters, or None (an empty one is None)."""
    if label is None:
        return None
    if not isinstance(label, str):
        raise ProfileError(f"Invalid label {label!r}: it must be text.")
    label = label.strip()
    if not label:
        return None
    if len(label) > LABEL_MAX or not label.isprintable():
        raise ProfileError(
            f"Invalid label {label!r}: use 1 to {LABEL_MAX} printable characters, e.g. PROD."
        )
    return label


def validate_key_env(name: str | None) -> str | None:
    """An environment variable's name: letters, digits and _, not starting with a digit."""
    if name is None:
        return None
    if not isinstance(name, str) or not ENV_NAME_PATTERN.fullmatch(name.strip()):
        raise ProfileError(
            f"Invalid key source: {name!r} is not an environment variable's name "
            "(letters, digits and _, not starting with a digit)."
        )
    return name.strip()


def validate_key_command(command: str | None) -> str | None:
    """A command line the key is read from: split like a shell would, never run by one."""
    if command is None:
        return None
    import shlex

    if not isinstance(command, str) or not command.strip():
        raise ProfileError("Invalid key source: the key command is empty.")
    if any(ord(ch) < 32 for ch in command):
        raise ProfileError("Invalid key source: the key command holds a control character.")
    try:
        shlex.split(command)
    except ValueError as error:
        raise ProfileError(
            f"Invalid key source: the key command cannot be split ({error})."
        ) from None
    return command.strip()


def validate_color(color: str | None) -> str | None:
    """One of COLORS (any case), or None."""
    if color is None or (isinstance(color, str) and not color.strip()):
        return None
    if not isinstance(color, str) or color.strip().lower() not in COLORS:
        raise ProfileError(f"Invalid colour {color!r}: use one of {', '.join(COLORS)}.")
    return color.strip().lower()


def validate_name(name: str) -> str:
    """Return the profile name if it is usable as a file key and a keyring user name."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ProfileError(
            f"Invalid profile name {name!r}: use 1 to 64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit."
        )
    return name


def normalize_base_url(url: str) -> str:
    """Check that `url` is an http(s) URL with a host and return it without a trailing slash.

    Credentials, a query or a fragment are refused: a key must never end up in this file.
    """
    if not isinstance(url, str):
        raise ProfileError("Invalid base URL: it must be text.")
    url = url.strip()
    shown = without_password(url)
    shown = shown if len(shown) <= 200 else shown[:200] + "..."

    def bad(reason: str) -> ProfileError:
        return ProfileError(f"Invalid base URL {shown!r}: {reason}.")

    if not url:
        raise bad("it is empty")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url):
        raise bad("it contains spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise bad(str(error)) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise bad("it must start with http:// or https://")
    if not parts.hostname:
        raise bad("it has no host")
    if parts.username is not None or parts.password is not None:
        raise bad("it must not contain a user name or password")
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        raise bad("it must not have a query or fragment")
    if port == 0:
        raise bad("port 0 is not a port")
    return urlunsplit((parts.scheme.lower(), parts.netloc, parts.path.rstrip("/"), "", ""))


def without_password(url: str) -> str:
    """`url` as it may be shown when refused: the password of its user info replaced by
    `***` (user info with no password, often a token, replaced whole), and so is a query or
    a fragment (`?token=...`). Split as urlsplit splits it, with or without a scheme."""
    head, slashes, rest = url.partition("//")
    if not slashes or "@" in head:
        head, rest = "", url
    else:
        head += slashes
    cut = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, tail = rest[:cut], rest[cut:]
    user_info, at, host = authority.rpartition("@")
    if at:
        user, colon, _password = user_info.partition(":")
        authority = f"{user}:***@{host}" if colon else f"***@{host}"
    path, mark, _query = _split_query(tail)
    return f"{head}{authority}{path}{mark + '***' if mark else ''}"


def _split_query(tail: str) -> tuple[str, str, str]:
    """(path, "?" or "#", what follows it) of the part after the authority."""
    marks = [i for i in (tail.find("?"), tail.find("#")) if i >= 0]
    if not marks:
        return tail, "", ""
    at = min(marks)
    return tail[:at], tail[at], tail[at + 1 :]


def config_dir() -> Path:
    """The directory of the profiles file: $TENANT_CONSOLE_CONFIG_DIR or the user config dir."""
    override = os.environ.get(CONFIG_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME, appauthor=False))


def config_path() -> Path:
    """The profiles file itself."""
    return config_dir() / CONFIG_FILE_NAME


@dataclass
class ProfilesFile:
    """The profiles file in memory: change it with add/use/remove, then save()."""

    path: Path
    profiles: dict[str, Profile] = field(default_factory=dict)
    active: str | None = None

    @classmethod
    def load(cls, path: Path | None = None) -> ProfilesFile:
        """Read the file; a missing file is an empty one. Raises ConfigError if it is damaged."""
        path = Path(path) if path is not None else config_path()
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return cls(path=path)
        except IsADirectoryError:
            raise ConfigError(path, None, "a directory, not a file") from None
        except OSError as error:
            raise ConfigError(path, None, f"cannot read it ({error.strerror})") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise ConfigError(path, line, "not UTF-8 text") from None
        try:
            document = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            line, message = _decode_error_position(error, text)
            raise ConfigError(path, line, f"not valid TOML ({message})") from None
        profiles, active = _parse_document(document, text, path)
        return cls(path=path, profiles=profiles, active=active)

    def get(self, name: str) -> Profile:
        """The profile called `name`, or a ProfileError listing the known ones."""
        try:
            return self.profiles[name]
        except KeyError:
            raise ProfileError(unknown_profile_message(name, self.profiles)) from None

    def add(self, profile: Profile) -> bool:
        """Add or replace a profile; the first one becomes active. True if it replaced one."""
        replaced = profile.name in self.profiles
        self.profiles[profile.name] = profile
        if self.active is None:
            self.active = profile.name
        return replaced

    def use(self, name: str) -> None:
        """Make `name` the active profile."""
        self.get(name)
        self.active = name

    def remove(self, name: str) -> Profile:
        """Remove a profile (not its key: see keys.delete_key); the active one leaves no active."""
        profile = self.get(name)
        del self.profiles[name]
        if self.active == name:
            self.active = None
        return profile

    def render(self) -> str:
        """The file's TOML text."""
        lines = [
            "# tenant-console profiles: a name and a base URL each.",
            "# API keys are never stored here: they live in the OS keyring,",
            '# service "tenant-console", user = profile name, or come from the',
            "# environment variable (key_env) or command (key_command) a profile names.",
        ]
        if self.active is not None:
            lines.append(f"active = {_toml_string(self.active)}")
        for profile in self.profiles.values():
            lines += ["", f"[profiles.{_toml_key(profile.name)}]"]
            lines.append(f"base_url = {_toml_string(profile.base_url)}")
            if profile.key_header is not None:
                lines.append(f"key_header = {_toml_string(profile.key_header)}")
            for key, value in (
                ("label", profile.label),
                ("color", profile.color),
                ("tenant_name", profile.tenant_name),
                ("key_env", profile.key_env),
                ("key_command", profile.key_command),
            ):
                if value is not None:
                    lines.append(f"{key} = {_toml_string(value)}")
            if profile.rate_limit is not None:
                lines.append(f"rate_limit = {profile.rate_limit}")
        return "\n".join(lines) + "\n"

    def save(self) -> None:
        """Write the file atomically (temp file + replace), mode 0600, in a 0700 directory."""
        try:
            _write_atomically(self.path, self.render())
        except OSError as error:
            reason = error.strerror or str(error)
            raise ProfileError(f"Cannot save the profiles file {self.path}: {reason}.") from None


def unknown_profile_message(name: str, profiles: Mapping[str, Profile], origin: str = "") -> str:
    """One line saying the profile does not exist and which ones do."""
    known = ", ".join(sorted(profiles)) if profiles else "none yet"
    return (
        f'Unknown profile "{name}"{origin}. Known profiles: {known}. '
        "Add one with: tenant-console profile add NAME --base-url URL"
    )


def _decode_error_position(error: tomllib.TOMLDecodeError, text: str) -> tuple[int, str]:
    """Line number and message of a TOML syntax error (tomllib puts them in the message)."""
    message = str(error)
    lineno = getattr(error, "lineno", None)
    match = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
    if match:
        lineno = lineno or int(match.group(1))
        message = message[: match.start()]
    elif message.endswith("(at end of document)"):
        message = message.removesuffix("(at end of document)").rstrip()
        lineno = lineno or max(1, len(text.splitlines()))
    return int(lineno or 1), message


def _parse_document(
    document: dict[str, Any], text: str, path: Path
) -> tuple[dict[str, Profile], str | None]:
    """Turn the parsed TOML into profiles, with the line of anything wrong in it."""
    for key in document:
        if key not in ("active", "profiles"):
            raise ConfigError(path, _locate(text, key=key), f"unknown setting {key!r}")
    tables = document.get("profiles", {})
    if not isinstance(tables, dict):
        raise ConfigError(path, _locate(text, key="profiles"), "'profiles' must be a table")
    profiles: dict[str, Profile] = {}
    for name, table in tables.items():
        line = _locate(text, profile=name)
        if not isinstance(table, dict):
            raise ConfigError(path, line, f"profile {name!r} must be a table")
        for key in table:
            if key.lower() in _SECRET_FIELDS:
                raise ConfigError(
                    path,
                    _locate(text, profile=name, key=key),
                    f"profile {name!r} has a {key!r}: keys are never read from this file; "
                    "store it with `tenant-console profile add` or set TENANT_CONSOLE_API_KEY",
                )
            if key not in _PROFILE_FIELDS:
                raise ConfigError(
                    path,
                    _locate(text, profile=name, key=key),
                    f"profile {name!r} has an unknown setting {key!r}",
                )
        if "base_url" not in table:
            raise ConfigError(path, line, f"profile {name!r} has no base_url")
        try:
            extra = {
                k: table[k]
                for k in ("label", "color", "tenant_name", "key_env", "key_command", "rate_limit")
                if k in table
            }
            header = table.get("key_header")
            if header is not None and not isinstance(header, str):
                raise ProfileError("Invalid key header: key_header must be a string.")
            profiles[name] = Profile(name, table["base_url"], key_header=header, **extra)
        except ProfileError as error:
            words = {
                "base URL": "base_url",
                "label": "label",
                "colour": "color",
                "tenant": "tenant_name",
                "key header": "key_header",
                "key source": "key_env" if "key_env" in table else "key_command",
                "rate limit": "rate_limit",
            }
            field_name = next((k for w, k in words.items() if f"Invalid {w}" in str(error)), None)
            at = (_locate(text, profile=name, key=field_name) if field_name else None) or line
            raise ConfigError(path, at, str(error).rstrip(".")) from None
    active = document.get("active")
    if active is not None and (not isinstance(active, str) or active not in profiles):
        raise ConfigError(
            path,
            _locate(text, key="active"),
            f"the active profile {active!r} is not one of the profiles",
        )
    return profiles, active


def _locate(text: str, *, profile: str | None = None, key: str | None = None) -> int | None:
    """Best-effort line number of a profile's table, or of a key (inside that profile)."""
    lines = text.splitlines()
    start = 0
    if profile is not None:
        name = re.escape(profile)
        header = re.compile(rf"""profiles\s*\.\s*(?:{name}|"{name}"|'{name}')\s*(?:[\].=]|$)""")
        inline = re.compile(rf"""\s*(?:{name}|"{name}"|'{name}')\s*[.=]""")
        found = None
        for index, line in enumerate(lines):
            code = line.split("#", 1)[0]
            if header.search(code) or inline.match(code):
                found = index
                break
        if found is None:
            return None
        start = found
        if key is None:
            return start + 1
    if key is None:
        return None
    pattern = re.compile(rf"""(^|[.\s{{,])["']?{re.escape(key)}["']?\s*=""")
    for index in range(start, len(lines)):
        code = lines[index].split("#", 1)[0]
        if index > start and profile is not None and code.lstrip().startswith("["):
            break
        if pattern.search(code) or (profile is None and code.strip() == f"[{key}]"):
            return index + 1
    return start + 1 if profile is not None else None


def _toml_key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else _toml_string(name)


def _toml_string(value: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    escaped = []
    for ch in value:
        if ch == '"':
            escaped.append('\\"')
        elif ch == "\\":
            escaped.append("\\\\")
        elif ord(ch) < 32 or ord(ch) == 127:
            escaped.append(f"\\u{ord(ch):04x}")
        else:
            escaped.append(ch)
    return '"' + "".join(escaped) + '"'


def _ensure_private_dir(directory: Path) -> None:
    """Create the directory with mode 0700; an existing one is left as it is."""
    if directory.is_dir():
        return
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    with suppress(OSError):
        os.chmod(directory, 0o700)  # mkdir's mode is filtered by the umask


def _write_atomically(path: Path, text: str) -> None:
    """Write to a temp file beside `path`, then replace: readers see the old or the new file."""
    _ensure_private_dir(path.parent)
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            os.chmod(temp_name, 0o600)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp_name)
        raise
    if hasattr(os, "O_DIRECTORY"):
        with suppress(OSError):
            dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
