"""How the OpenAPI document describes a proxy's transform steps, per side.

The shared model (console.models.proxies.ProxyTransform) carries every type of step, and
unknown ones, through the console; this service keeps only the types each side takes
(SIDE_TYPES) with the fields each type requires (ProxyTransform.problems). The document
says the same with one schema per side: `oneOf` a variant per type, told apart by `type`.
What a schema cannot say (a mask's expression must compile and hold a capture group) is
the validator's alone.
"""

from __future__ import annotations

from typing import Any

from console.models.proxies import CODE_MAX, MASK_MATCHERS, SIDE_TYPES, TRANSFORMS_MAX

Schema = dict[str, Any]

_REF = "#/components/schemas/{name}"
STEP_SCHEMAS = {"request": "ProxyRequestStep", "response": "ProxyResponseStep"}
"""The components naming each side's step."""


_STRING = {"anyOf": [{"type": "string"}, {"type": "null"}]}
_OBJECT = {"anyOf": [{"type": "object"}, {"type": "null"}]}
_OPTIONS = {
    "token": _OBJECT,
    "identifier": _STRING,
    "value": _STRING,
    "location": _STRING,
    "runtime": _OBJECT,
}
_CODE = {"type": "string", "minLength": 1, "maxLength": CODE_MAX}
_FIELDS = {
    "code": {"anyOf": [_CODE, {"type": "null"}]},
    "matcher": _STRING,
    "expression": _STRING,
    "replacement": _STRING,
    "options": {"anyOf": [{"type": "object", "properties": _OPTIONS}, {"type": "null"}]},
}
"""Every field a step may carry, typed, whatever its type (null: not given; a field a type
does not use is kept, not judged); each variant narrows what its type needs."""


def _step(kind: str, required: list[str], **properties: Any) -> Schema:
    return {
        "type": "object",
        "title": f"{kind} step",
        "properties": {**_FIELDS, "type": {"const": kind}, **properties},
        "required": ["type", *required],
    }


def _options(required: list[str], **properties: Any) -> Schema:
    return {"type": "object", "properties": {**_OPTIONS, **properties}, "required": required}


_TEXT = {"type": "string", "minLength": 1}
_VALUE = {"type": "string"}

_VARIANTS: dict[str, list[Schema]] = {
    "code": [
        {
            "type": "object",
            "title": "code step",
            "properties": {
                **_FIELDS,
                "type": {"enum": ["code", None]},
                "code": _CODE,
            },
            "required": ["code"],
        }
    ],
    "mask": [
        _step(
            "mask",
            ["matcher", "replacement", "expression"],
            matcher={"const": "regex"},
            replacement={"type": "string", "minLength": 1, "maxLength": 1},
            expression={
                **_TEXT,
                "description": "A regular expression with at least one capture group.",
            },
        ),
        *(
            _step(
                "mask",
                ["matcher", "replacement"],
                matcher={"const": matcher},
                replacement={"type": "string", "minLength": 1, "maxLength": 1},
            )
            for matcher in MASK_MATCHERS
            if matcher != "regex"
        ),
    ],
    "tokenize": [
        _step(
            "tokenize",
            ["options"],
            options=_options(["token", "identifier"], token={"type": "object"}, identifier=_TEXT),
        )
    ],
    "append_json": [
        _step(
            "append_json",
            ["options"],
            options=_options(["value", "location"], value=_VALUE, location=_TEXT),
        )
    ],
    "append_text": [_step("append_text", ["options"], options=_options(["value"], value=_VALUE))],
    "append_header": [
        _step(
            "append_header",
            ["options"],
            options=_options(["value", "location"], value=_VALUE, location=_TEXT),
        )
    ],
}


def step_schema(side: str) -> Schema:
    """One step of the `side` pipeline: a variant per type the side takes."""
    return {
        "title": STEP_SCHEMAS[side],
        "description": f"A {side} transform step: {', '.join(SIDE_TYPES[side])}.",
        "oneOf": [variant for kind in SIDE_TYPES[side] for variant in _VARIANTS[kind]],
    }


def _ref(side: str) -> Schema:
    return {"$ref": _REF.format(name=STEP_SCHEMAS[side])}


def steps_documented(properties: Schema, *, nullable: bool = True) -> None:
    """The body's transforms and pipelines as each side's steps (a body's `properties`)."""
    for side in SIDE_TYPES:
        single: Schema = _ref(side)
        pipeline: Schema = {"type": "array", "items": _ref(side), "maxItems": TRANSFORMS_MAX}
        if nullable:
            single = {"anyOf": [single, {"type": "null"}]}
            pipeline = {"anyOf": [pipeline, {"type": "null"}]}
        properties[f"{side}_transform"] = single
        properties[f"{side}_transforms"] = {
            **pipeline,
            "description": f"The {side} steps in order; null or [] for none.",
        }


def one_of_each_side(schema: Schema) -> None:
    """A body gives a side's single transform or its pipeline, not both (both non-null).
    (The service also takes both when the single one is the pipeline's only step, as a proxy
    is read; a schema cannot compare the two.)"""
    schema["allOf"] = [
        {
            "not": {
                "required": [f"{side}_transform", f"{side}_transforms"],
                "properties": {
                    f"{side}_transform": {"type": "object"},
                    f"{side}_transforms": {"type": "array"},
                },
            }
        }
        for side in SIDE_TYPES
    ]


def shared_documented(schemas: Schema) -> None:
    """Each side's step in components.schemas; the model's own step schema goes (no body
    refers to it any more)."""
    for side, name in STEP_SCHEMAS.items():
        schemas[name] = step_schema(side)
    for unused in ("ProxyTransform", "TransformOptions"):
        schemas.pop(unused, None)
