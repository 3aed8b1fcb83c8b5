"""The code contracts of the spec, checked in Python on both sides of a test-run.

Before: a sample request against what the formula declares (its request parameters and
configuration contract) or what a transform receives. After: the returned object against
the response shape (`raw`/`tokenize` for a formula, `body`/`headers` for a transform).
Also the prefilled sample request a test-run starts from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from console.runner.result import EXPECTED, Kind

VALUE_TYPES = ("string", "boolean", "number")

PLACEHOLDERS: dict[str, Any] = {"string": "text", "boolean": True, "number": 1}
"""A value of each declared type, for a prefilled sample."""


class FormulaContract(Protocol):
    """What a formula declares of its request: the formula as read (a model), or the two
    fields read from a file (`run --formula`) or a form (each a list of entries, or None)."""

    @property
    def request_parameters(self) -> Iterable[Any] | None: ...

    @property
    def configuration(self) -> Iterable[Any] | None: ...


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _item(entry: Any) -> dict[str, Any]:
    """A contract entry as a dict, whether a model or a dict was given."""
    if isinstance(entry, Mapping):
        return dict(entry)
    from pydantic import BaseModel  # loaded already when a model was given

    return dict(entry.model_dump()) if isinstance(entry, BaseModel) else {}


def check_formula_request(
    request: Any,
    request_parameters: Iterable[Any] = (),
    configuration: Iterable[Any] = (),
) -> list[str]:
    """What is wrong with a sample `{args, configuration}` for a formula that declares these
    parameters and settings: missing ones and wrong types. Extra arguments are fine (the
    service forwards them unchecked); extra settings too (a reactor may carry them)."""
    if not isinstance(request, dict):
        return [
            f"The request must be an object with args and configuration, not {_type_name(request)}."
        ]
    problems: list[str] = []
    unknown = sorted(set(request) - {"args", "configuration"})
    if unknown:
        problems.append(
            "The request holds only args and configuration; not " + ", ".join(unknown) + "."
        )
    args = request.get("args", {})
    settings = request.get("configuration", {})
    if not isinstance(args, dict):
        problems.append(f"args must be an object, not {_type_name(args)}.")
        args = None
    if not isinstance(settings, dict):
        problems.append(f"configuration must be an object, not {_type_name(settings)}.")
        settings = None
    if args is not None:
        for parameter in map(_item, request_parameters):
            problems.extend(_check_parameter(args, parameter))
    if settings is not None:
        for setting in map(_item, configuration):
            name = str(setting.get("name") or "")
            declared = setting.get("type")
            if not name:
                continue
            if name not in settings:
                problems.append(f"configuration.{name} is missing ({declared}).")
            else:
                problems.extend(_check_type(f"configuration.{name}", settings[name], declared))
    return problems


def _check_parameter(args: dict[str, Any], parameter: dict[str, Any]) -> list[str]:
    name = str(parameter.get("name") or "")
    if not name:
        return []
    declared = parameter.get("type")
    optional = bool(parameter.get("optional"))
    holder: Any = args
    path = "args"
    parts = name.split(".")
    for part in parts[:-1]:
        path = f"{path}.{part}"
        if not isinstance(holder, dict) or part not in holder:
            if optional:
                return []
            return [f"args.{name} is missing ({declared}; {path} holds it)."]
        holder = holder[part]
        if not isinstance(holder, dict):
            return [f"{path} must be an object (it holds {name}), not {_type_name(holder)}."]
    last = parts[-1]
    if last not in holder:
        return [] if optional else [f"args.{name} is missing ({declared})."]
    return _check_type(f"args.{name}", holder[last], declared)


def _check_type(path: str, value: Any, declared: Any) -> list[str]:
    if declared not in VALUE_TYPES:  # a type of the service's own: not ours to judge
        return []
    actual = _type_name(value)
    if actual == declared:
        return []
    return [f"{path} must be a {declared}, not {actual} ({_short(value)})."]


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 30 else text[:29] + "…"


def check_transform_request(request: Any) -> list[str]:
    """What is wrong with a sample `{args: {body, headers}, configuration}` for a transform."""
    if not isinstance(request, dict):
        return [
            "The request must be an object with args (body, headers) and configuration, "
            f"not {_type_name(request)}."
        ]
    problems: list[str] = []
    unknown = sorted(set(request) - {"args", "configuration", "bt"})
    if unknown:
        problems.append(
            "The request holds only args, configuration and bt (the tokens the bt stand-in "
            "knows); not " + ", ".join(unknown) + "."
        )
    problems += _bt_fixture_problems(request.get("bt"))
    args = request.get("args")
    if not isinstance(args, dict):
        problems.append(f"args must be an object with body and headers, not {_type_name(args)}.")
    else:
        if "body" not in args:
            problems.append("args.body is missing.")
        headers = args.get("headers")
        if not isinstance(headers, dict):
            problems.append(f"args.headers must be an object, not {_type_name(headers)}.")
    settings = request.get("configuration", {})
    if settings is not None and not isinstance(settings, dict):
        problems.append(f"configuration must be an object, not {_type_name(settings)}.")
    elif settings:
        for name, value in settings.items():
            if not isinstance(value, str):
                problems.append(
                    f"configuration.{name} must be a string (a proxy's configuration maps "
                    f"names to strings), not {_type_name(value)}."
                )
    return problems


def check_request(kind: Kind, request: Any, formula: FormulaContract | None = None) -> list[str]:
    """The request check for a kind; a formula's declared contract comes from `formula`."""
    if kind == "transform":
        return check_transform_request(request)
    if formula is None:
        return check_formula_request(request)
    return check_formula_request(
        request, formula.request_parameters or (), formula.configuration or ()
    )


def check_result(kind: Kind, result_kind: str | None, value: Any) -> tuple[list[str], list[str]]:
    """(problems, notes) about a returned value against the kind's response shape."""
    if result_kind != "object":
        what = {"undefined": "nothing"}.get(result_kind or "", result_kind or "nothing")
        expected = EXPECTED[kind]
        return [f"The code returned {what}; the contract expects an object {expected}."], []
    assert isinstance(value, dict)
    if kind == "formula":
        return _formula_shape(value)
    if kind == "reactor":
        return _reactor_shape(value)
    return _transform_shape(value)


def _formula_shape(value: dict[str, Any]) -> tuple[list[str], list[str]]:
    problems: list[str] = []
    notes: list[str] = []
    if "raw" in value and not isinstance(value["raw"], dict):
        problems.append(f"raw must be an object, not {_type_name(value['raw'])}.")
    if "tokenize" in value and not isinstance(value["tokenize"], dict | list):
        problems.append(
            f"tokenize must be an object (or a list, as for Tokenize), "
            f"not {_type_name(value['tokenize'])}."
        )
    extra = sorted(set(value) - {"raw", "tokenize"})
    if extra:
        notes.append("Not in the contract (the service ignores them): " + ", ".join(extra) + ".")
    if "raw" not in value and "tokenize" not in value:
        notes.append("Neither raw nor tokenize: the reactor answers with nothing.")
    return problems, notes


def _reactor_shape(value: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A reactor answers `raw`, `body`, `headers` (any JSON) and may `tokenize` (as a formula)."""
    problems: list[str] = []
    notes: list[str] = []
    if "headers" in value and not isinstance(value["headers"], dict):
        problems.append(f"headers must be an object, not {_type_name(value['headers'])}.")
    if "tokenize" in value and not isinstance(value["tokenize"], dict | list):
        problems.append(
            f"tokenize must be an object (or a list, as for Tokenize), "
            f"not {_type_name(value['tokenize'])}."
        )
    extra = sorted(set(value) - {"raw", "body", "headers", "tokenize"})
    if extra:
        notes.append("Not in the contract (the service ignores them): " + ", ".join(extra) + ".")
    if not set(value) & {"raw", "body", "headers", "tokenize"}:
        notes.append("None of raw, body, headers or tokenize: the reactor answers with nothing.")
    return problems, notes


def _transform_shape(value: dict[str, Any]) -> tuple[list[str], list[str]]:
    problems: list[str] = []
    notes: list[str] = []
    if "body" not in value:
        problems.append("body is missing: the proxied message would have none.")
    if "headers" not in value:
        problems.append("headers is missing: the proxied message would have none.")
    elif not isinstance(value["headers"], dict):
        problems.append(f"headers must be an object, not {_type_name(value['headers'])}.")
    else:
        odd = sorted(k for k, v in value["headers"].items() if not isinstance(v, str | list))
        if odd:
            notes.append("Header values that are not strings: " + ", ".join(odd) + ".")
    extra = sorted(set(value) - {"body", "headers"})
    if extra:
        notes.append("Not in the contract (the service ignores them): " + ", ".join(extra) + ".")
    return problems, notes


def formula_sample(formula: Any = None) -> dict[str, Any]:
    """`{args, configuration}` with a placeholder of the right type for every declared
    parameter (dotted names nested) and setting. `formula`: a FormulaContract or None (the
    console's forms hand theirs over untyped)."""
    args: dict[str, Any] = {}
    parameters = (formula.request_parameters if formula is not None else None) or ()
    settings = (formula.configuration if formula is not None else None) or ()
    for parameter in map(_item, parameters):
        name = str(parameter.get("name") or "")
        if not name:
            continue
        holder = args
        parts = name.split(".")
        for part in parts[:-1]:
            nested = holder.get(part)
            if not isinstance(nested, dict):
                nested = holder[part] = {}
            holder = nested
        holder[parts[-1]] = PLACEHOLDERS.get(str(parameter.get("type")), "text")
    configuration = {
        str(setting.get("name")): PLACEHOLDERS.get(str(setting.get("type")), "text")
        for setting in map(_item, settings)
        if setting.get("name")
    }
    return {"args": args, "configuration": configuration}


def _bt_fixture_problems(fixtures: Any) -> list[str]:
    """A sample's `bt`: {"tokens": {ID: token object}}, what bt.tokens.retrieve answers."""
    if fixtures is None:
        return []
    if not isinstance(fixtures, dict) or set(fixtures) - {"tokens"}:
        return ['bt must be an object {"tokens": {ID: token}}, the tokens the stand-in knows.']
    tokens = fixtures.get("tokens", {})
    if not isinstance(tokens, dict):
        return [f"bt.tokens must be an object of tokens by id, not {_type_name(tokens)}."]
    return [
        f"bt.tokens.{token_id} must be a token object, not {_type_name(token)}."
        for token_id, token in tokens.items()
        if not isinstance(token, dict)
    ]


def transform_sample(configuration: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A JSON request with the proxy's configuration, for a transform."""
    return {
        "args": {
            "body": {"card_number": "4242424242424242"},
            "headers": {"content-type": "application/json"},
        },
        "configuration": {k: v if v is not None else "" for k, v in (configuration or {}).items()},
    }
