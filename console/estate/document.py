"""A tenant's configuration as a document: what `export` writes and `diff`/`apply` read.

Only what an administrator configures is in it (settings, applications, proxies, private
formulas); what the service assigns (ids, keys, proxy keys, timestamps, tenant ids) never is,
so two exports of tenants configured alike are equal. Objects are sorted by name and every
object's keys come in a fixed order, so two exports diff cleanly in git.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from console.estate.travelling import SETTINGS, TENANT, estate_of, in_apply_order, in_document
from console.estate.validate import (
    MAX_DEPTH,
    TargetFacts,
    document_problems,
    referred_name,
    shape_problems,
    target_problems,
)
from console.kinds import Kind
from console.kinds.estate_facet import Item
from console.terminal_text import printable

FORMAT = "tenant-console/configuration-1"
"""The document's `format`: a later version of the console can tell an older file."""

REDACTED = "<redacted>"
"""What `export --redact` writes instead of each proxy configuration value; `apply` refuses
to send it (a proxy would otherwise run with the placeholder as its secret)."""

Document = dict[str, Any]


def __getattr__(name: str) -> Any:
    """`KINDS`: the travelling kinds' keys in apply order, asked of the registry at each use
    (console.tui.actions.promote reads it; new code asks console.estate.travelling)."""
    if name == "KINDS":
        return tuple(kind.key for kind in in_apply_order())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


# ---- normal forms: each kind's own (its estate facet), the same for a tenant and a file ----


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def normal_item(kind: Kind, raw: Mapping[str, Any], names: Mapping[str, str | None]) -> Item:
    """An object of `kind` in normal form, each reference naming its object as `names`
    has it (by the reference's field)."""
    facet = estate_of(kind)
    if facet.references:
        raw = {**raw, **{ref.field: names.get(ref.field) for ref in facet.references}}
    return facet.form(raw)


def file_item(kind: Kind, raw: Mapping[str, Any]) -> Item:
    """An object of a (checked) file in normal form: its references already by name."""
    names = {ref.field: referred_name(raw.get(ref.field)) for ref in estate_of(kind).references}
    return normal_item(kind, raw, names)


def sort_items(items: Iterable[Item], by: str = "name") -> list[Item]:
    """By name; objects of one name (reported as duplicates) in a stable order too."""
    return sorted(items, key=lambda i: (str(i.get(by)), json.dumps(i, sort_keys=True)))


def make_document(
    tenant_name: str | None,
    settings: Mapping[str, Any],
    objects: Mapping[str, Iterable[Item]],
) -> Document:
    """A document: the tenant's name and settings, then every travelling kind's objects
    (`objects`, by kind key; a kind not given has none)."""
    document: Document = {"format": FORMAT, TENANT: tenant_name}
    document[SETTINGS] = {k: settings[k] for k in sorted(settings)}
    for kind in in_document():
        document[kind.key] = sort_items(objects.get(kind.key, ()), kind.name_field)
    return document


def redact(document: Document) -> Document:
    """A copy with every value of each kind's redacted maps (a proxy's configuration)
    replaced by REDACTED."""
    copy = json.loads(json.dumps(document))
    for kind in in_document():
        for item in copy.get(kind.key, []):
            for name in estate_of(kind).redacted:
                values = item.get(name)
                if isinstance(values, dict):
                    item[name] = {k: REDACTED for k in values}
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
    objects = {
        kind.key: [file_item(kind, raw) for raw in data.get(kind.key) or []]
        for kind in in_document()
    }
    return make_document(_text(data.get(TENANT)), data.get(SETTINGS) or {}, objects)


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
