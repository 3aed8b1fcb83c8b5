"""A tenant's configuration as a document: what `export` writes and `diff`/`apply` read.

Only what an administrator configures is in it (settings, applications, proxies, private
formulas); what the service assigns (ids, keys, proxy keys, timestamps, tenant ids) never is,
so two exports of tenants configured alike are equal. Objects are sorted by name and every
object's keys come in a fixed order, so two exports diff cleanly in git.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from console.estate.validate import (
    MAX_DEPTH,
    TargetFacts,
    application_name,
    document_problems,
    shape_problems,
    target_problems,
)
from console.terminal_text import printable

FORMAT = "tenant-console/configuration-1"
"""The document's `format`: a later version of the console can tell an older file."""

REDACTED = "<redacted>"
"""What `export --redact` writes instead of each proxy configuration value; `apply` refuses
to send it (a proxy would otherwise run with the placeholder as its secret)."""

KINDS: tuple[str, ...] = ("applications", "reactor_formulas", "proxies")
"""The object kinds in dependency order: a proxy refers to an application by name."""

SINGULAR = {
    "settings": "setting",
    "applications": "application",
    "reactor_formulas": "reactor formula",
    "proxies": "proxy",
}

Document = dict[str, Any]
Item = dict[str, Any]


MAX_FILE_BYTES = 64 * 1024 * 1024
"""A configuration file larger than this is refused before it is parsed."""


class DocumentError(Exception):
    """A configuration file that cannot be read or is not a configuration: one sentence, then
    one line per problem found (`problems`: path and sentence), every one of them at once."""

    def __init__(self, message: str, problems: list[tuple[str, str]] | None = None) -> None:
        self.problems = list(problems or [])
        lines = [message] + [
            f"  {path}: {sentence}" if path else f"  {sentence}" for path, sentence in self.problems
        ]
        super().__init__("\n".join(lines))


# ---- normal forms: one function per kind, the same for a tenant's answer and a file ------


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _strings(values: Any) -> list[str]:
    return sorted({v for v in values or [] if isinstance(v, str)})


def _rule(raw: Mapping[str, Any]) -> Item:
    """An access rule in a fixed key order; conditions only when the service sent some."""
    rule: Item = {
        "description": raw.get("description"),
        "priority": raw.get("priority"),
        "container": raw.get("container"),
        "transform": raw.get("transform"),
        "permissions": _strings(raw.get("permissions")),
    }
    if raw.get("conditions"):
        rule["conditions"] = raw["conditions"]
    return rule


def _rule_order(rule: Item) -> tuple[int, str]:
    priority = rule.get("priority")
    return (priority if isinstance(priority, int) else 1 << 62, str(rule.get("description")))


def moment(value: Any) -> Any:
    """A time as the document writes it: UTC, ISO 8601 with `Z` (`2026-12-01T09:30:00Z`), so
    the service's `+00:00` and a file's `+02:00` of the same moment compare equal. What is
    not a time with a zone is kept as it is (the file check reports it)."""
    if not isinstance(value, str):
        return value
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return value
    if parsed.tzinfo is None:
        return value
    return parsed.astimezone(UTC).isoformat().replace("+00:00", "Z")


def application_item(raw: Mapping[str, Any]) -> Item:
    """An application as configured: name, type, expiry (null: never), permissions and
    rules; never its key. The expiry travels: a temporary key stays temporary."""
    rules = [_rule(r) for r in raw.get("rules") or [] if isinstance(r, Mapping)]
    return {
        "name": raw.get("name"),
        "type": raw.get("type"),
        "expires_at": moment(raw.get("expires_at")),
        "permissions": _strings(raw.get("permissions")),
        "rules": sorted(rules, key=_rule_order),
    }


def _transform(raw: Any) -> Item | None:
    """A transform with `type` and `code` first, then any other fields as given (the hosted
    service's mask transforms): what the console does not understand is carried through."""
    if not isinstance(raw, Mapping):
        return None
    shaped: Item = {}
    for name in ("type", "code"):
        if raw.get(name) is not None:
            shaped[name] = raw[name]
    for name in sorted(raw):
        if name not in ("type", "code") and raw[name] is not None:
            shaped[name] = raw[name]
    return shaped or None


def proxy_item(raw: Mapping[str, Any], application_name: str | None) -> Item:
    """A proxy as configured; its application by name (ids differ between tenants)."""
    configuration = raw.get("configuration")
    if isinstance(configuration, Mapping):
        configuration = {k: configuration[k] for k in sorted(configuration)}
    else:
        configuration = None
    return {
        "name": raw.get("name"),
        "destination_url": raw.get("destination_url"),
        "require_auth": bool(raw.get("require_auth", True)),
        "application": application_name,
        "request_transform": _transform(raw.get("request_transform")),
        "response_transform": _transform(raw.get("response_transform")),
        "configuration": configuration,
    }


def _contract(items: Any, *, optional: bool) -> list[Item]:
    """Configuration settings or request parameters, in their own order (it is meaningful)."""
    shaped = []
    for raw in items or []:
        if not isinstance(raw, Mapping):
            continue
        item: Item = {
            "name": raw.get("name"),
            "description": raw.get("description"),
            "type": raw.get("type"),
        }
        if optional:
            item["optional"] = bool(raw.get("optional", False))
        shaped.append(item)
    return shaped


def formula_item(raw: Mapping[str, Any]) -> Item:
    """A private formula as configured: code, configuration, request parameters and icon."""
    return {
        "name": raw.get("name"),
        "description": raw.get("description"),
        "icon": raw.get("icon"),
        "configuration": _contract(raw.get("configuration"), optional=False),
        "request_parameters": _contract(raw.get("request_parameters"), optional=True),
        "code": raw.get("code"),
    }


def sort_items(items: Iterable[Item]) -> list[Item]:
    """By name; objects of one name (reported as duplicates) in a stable order too."""
    return sorted(items, key=lambda i: (str(i.get("name")), json.dumps(i, sort_keys=True)))


def make_document(
    tenant_name: str | None,
    settings: Mapping[str, Any],
    applications: Iterable[Item],
    proxies: Iterable[Item],
    formulas: Iterable[Item],
) -> Document:
    return {
        "format": FORMAT,
        "tenant": tenant_name,
        "settings": {k: settings[k] for k in sorted(settings)},
        "applications": sort_items(applications),
        "proxies": sort_items(proxies),
        "reactor_formulas": sort_items(formulas),
    }


def redact(document: Document) -> Document:
    """A copy with every proxy configuration value replaced by REDACTED."""
    copy = json.loads(json.dumps(document))
    for proxy in copy.get("proxies", []):
        configuration = proxy.get("configuration")
        if isinstance(configuration, dict):
            proxy["configuration"] = {k: REDACTED for k in configuration}
    return copy


# ---- text ------------------------------------------------------------------------------


def dumps(document: Document, fmt: str = "json") -> str:
    """The document as JSON (2-space indent) or YAML, ending with a newline."""
    if fmt == "yaml":
        yaml = _yaml()

        safe_dumper: Any = yaml.SafeDumper

        class _Dumper(safe_dumper):
            """SafeDumper with text of several lines as a block."""

        def _string(dumper: Any, value: str) -> Any:
            style = "|" if "\n" in value else None  # code as a block: line diffs in git
            return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

        _Dumper.add_representer(str, _string)
        return str(
            yaml.dump(
                document,
                Dumper=_Dumper,
                sort_keys=False,
                allow_unicode=True,
                default_flow_style=False,
                width=100,
            )
        )
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def loads(text: str, where: str = "the file") -> Document:
    """A document from JSON or YAML text; DocumentError with one sentence if it is not one."""
    return checked(parse(text, where), where)


def parse(text: str, where: str = "the file") -> Any:
    """JSON or YAML text as data, not yet checked; DocumentError if it is neither."""
    stripped = text.lstrip()
    data: Any
    too_deep = f"{where} nests too deeply to be a configuration (more than {MAX_DEPTH} levels)."
    if stripped.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise DocumentError(f"{where} is not valid JSON: {error}.") from None
        except RecursionError:
            raise DocumentError(too_deep) from None
    else:
        yaml = _yaml()
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise DocumentError(
                f"{where} is neither JSON nor valid YAML: {printable(str(error))}"
            ) from None
        except RecursionError:
            raise DocumentError(too_deep) from None
    return data


def checked(
    data: Any, where: str, facts: TargetFacts | None = None, target: str = "the target"
) -> Document:
    """The document in normal form, so a hand-edited file compares like an export; checked
    whole first (console.estate.validate): DocumentError listing every problem, or nothing.
    With `facts`, then checked against the target (`target` names it) too."""
    shape = shape_problems(data)
    if shape:
        raise DocumentError(f"{where} is not a tenant configuration:", shape)
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise DocumentError(
            f"{where} is not a tenant configuration (written by `tenant-console export`, "
            f'with "format": "{FORMAT}").'
        )
    problems = document_problems(data)
    if problems:
        raise DocumentError(f"{where} has {_count(problems)}; nothing was read from it:", problems)
    problems = target_problems(data, facts) if facts is not None else []
    if problems:
        raise DocumentError(
            f"{where} has {_count(problems)} on {target}; nothing was sent:", problems
        )
    lists = {kind: data.get(kind) or [] for kind in KINDS}
    return make_document(
        _text(data.get("tenant")),
        data.get("settings") or {},
        (application_item(a) for a in lists["applications"]),
        (proxy_item(p, application_name(p.get("application"))) for p in lists["proxies"]),
        (formula_item(f) for f in lists["reactor_formulas"]),
    )


def _count(problems: list[tuple[str, str]]) -> str:
    return f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"


def read_file(path: Path) -> Document:
    """A configuration file: a regular file of at most MAX_FILE_BYTES, UTF-8, checked whole."""
    return checked(read_data(path), str(path))


def read_data(path: Path) -> Any:
    """A configuration file's data, parsed but not checked (see `checked`)."""
    from console.files import read_small_file

    data = read_small_file(path, MAX_FILE_BYTES, DocumentError)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DocumentError(f"{path} is not UTF-8 text.") from None
    return parse(text, str(path))


def write_private(path: Path, text: str) -> None:
    """Writes `text` to `path` readable by its owner only (0600), replacing it atomically:
    proxy configuration values and new keys may be secrets."""
    from console.files import create_file

    create_file(path, text, force=True, private=True)


def _yaml() -> Any:
    """PyYAML, imported when YAML is asked for (JSON needs nothing)."""
    try:
        import yaml
    except ImportError:
        raise DocumentError(
            "YAML needs PyYAML, which is not installed: pip install pyyaml (or use JSON)."
        ) from None
    return yaml
