"""Proxies: pre-configured routes with optional transform code."""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar
from uuid import UUID

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_serializer,
)
from pydantic_core import PydanticCustomError

from console.models.common import LenientModel, Name, RequestModel, ResponseModel, UtcDateTime

DESTINATION_URL_MAX = 400
CODE_MAX = 50_000
TIMEOUT_MIN = 1
TIMEOUT_MAX = 30
"""Seconds the service waits for the destination (`timeout`)."""

# What a destination URL is: an absolute https URL (RFC 3986, no fragment) whose host is a
# DNS name (RFC 1123 labels, the last one starting with a letter) or an IPv4 address, with
# an optional port from 1 to 65535, no user info, and only URL characters (the rest
# percent-encoded, so no whitespace or control characters). One pattern, written in the
# subset of regex syntax that Python and ECMA-262 (JSON Schema) read alike: the validator
# and the OpenAPI document cannot disagree.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_LAST_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_HOST = rf"(?:(?:{_LABEL}\.)*{_LAST_LABEL}|{_OCTET}(?:\.{_OCTET}){{3}})"
_PORT = r"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})"
_PCHAR = r"(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"
DESTINATION_URL_PATTERN = rf"^https://{_HOST}(?::{_PORT})?(?:/{_PCHAR}*)*(?:\?(?:{_PCHAR}|[/?])*)?$"
_DESTINATION_URL = re.compile(DESTINATION_URL_PATTERN[1:-1])
_AUTHORITY = re.compile(r"https://([^/?#]*)")


def destination_url_problem(value: str) -> str | None:
    """Why `value` is not a destination URL (one sentence), or None if it is one.

    The verdict is the pattern's alone; the rest only picks the sentence that helps most.
    """
    if _DESTINATION_URL.fullmatch(value):
        return None
    if not value.startswith("https://"):
        return "The destination URL must be an absolute URL starting with https://."
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value):
        return "The destination URL must not contain spaces or control characters."
    if "#" in value:
        return "The destination URL must not have a fragment (#...)."
    authority = _AUTHORITY.match(value)
    host = authority.group(1) if authority else ""
    if "@" in host:
        return "The destination URL must not contain user info (name or password before @)."
    host, colon, port = host.rpartition(":") if ":" in host else (host, "", "")
    if colon and not re.fullmatch(_PORT, port):
        return "The port of the destination URL must be a number from 1 to 65535."
    if not re.fullmatch(_HOST, host):
        return "The host of the destination URL must be a DNS name or an IPv4 address."
    return (
        "The destination URL may only hold URL characters: percent-encode the others "
        "(%20 for a space)."
    )


TRANSFORM_TYPES: tuple[str, ...] = (
    "code",
    "mask",
    "tokenize",
    "append_json",
    "append_text",
    "append_header",
)
"""The kinds of step a proxy's transform pipeline holds (the vendor's SDK `ProxyTransform`)."""
SIDE_TYPES: dict[str, tuple[str, ...]] = {
    "request": ("code", "tokenize"),
    "response": ("code", "mask", "tokenize", "append_json", "append_text", "append_header"),
}
"""The step types each pipeline takes, as the vendor's documentation has them ("Proxy
Transforms"): a request is transformed by code or tokenized before it goes on; masking and
appending (JSON, text, a header) are done to the destination's response only."""
MASK_MATCHERS: tuple[str, ...] = ("regex", "chase_stratus_pan")
TRANSFORMS_MAX = 10
"""Steps a pipeline may hold."""


class TransformOptions(BaseModel):
    """A step's `options` (the SDK's `ProxyTransformOptions`): what `tokenize` makes, what an
    `append_*` step adds and where, a code step's runtime. Kept whole, unknown keys too."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    token: dict[str, Any] | None = None
    identifier: str | None = None
    value: str | None = None
    location: str | None = None
    runtime: dict[str, Any] | None = None

    @model_serializer(mode="wrap")
    def _as_sent(self, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data


def _step_problems(step: ProxyTransform) -> list[tuple[str, str]]:
    """(field, message) for what a step of its type lacks; a type this project does not
    know is the service's to judge (carried through as given)."""
    options = step.options or TransformOptions()
    problems: list[tuple[str, str]] = []
    match step.type:
        case "mask":
            if step.matcher not in MASK_MATCHERS:
                problems.append(
                    ("matcher", "A mask's matcher must be 'regex' or 'chase_stratus_pan'.")
                )
            if step.replacement is None or len(step.replacement) != 1:
                problems.append(("replacement", "A mask's replacement must be one character."))
            if step.matcher == "regex":
                problems.extend(_expression_problems(step.expression))
        case "tokenize":
            if not isinstance(options.token, dict):
                problems.append(("options.token", "A tokenize step needs the token to create."))
            if not options.identifier:
                problems.append(("options.identifier", "A tokenize step needs an identifier."))
        case "append_json" | "append_header":
            if options.value is None:
                problems.append(("options.value", "The value to append is required."))
            if not options.location:
                where = "JSON path" if step.type == "append_json" else "header name"
                problems.append(("options.location", f"The {where} to append at is required."))
        case "append_text":
            if options.value is None:
                problems.append(("options.value", "The text to append is required."))
    return problems


def _expression_problems(expression: str | None) -> list[tuple[str, str]]:
    if not expression:
        return [("expression", "A regex mask needs an expression.")]
    try:
        compiled = re.compile(expression)
    except re.error as exc:
        return [("expression", f"The expression is not a regular expression: {exc}.")]
    if compiled.groups < 1:
        return [("expression", "The expression must hold at least one capture group (...).")]
    return []


class ProxyTransform(BaseModel):
    """One step of a proxy's request or response pipeline, as a request sends it.

    The specification's transforms are code. The hosted service's steps are of the types in
    TRANSFORM_TYPES, each with its own fields; a type this project does not know is carried
    through with every field as given, so that saving a proxy never destroys a step the
    console cannot edit.
    """

    model_config = ConfigDict(extra="allow", defer_build=True)

    type: str | None = None
    code: str | None = Field(default=None, min_length=1, max_length=CODE_MAX, validate_default=True)
    matcher: str | None = None
    expression: str | None = None
    replacement: str | None = None
    options: TransformOptions | None = None

    @property
    def is_code(self) -> bool:
        return self.type in (None, "code")

    @property
    def kind(self) -> str:
        return self.type or "code"

    @field_validator("code")
    @classmethod
    def _code_needs_code(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("type") in (None, "code"):
            raise PydanticCustomError("missing", "Field required")
        return value

    def problems(self) -> list[tuple[str, str]]:
        """What the step's type requires and it lacks: (field, message)."""
        return _step_problems(self)

    @model_serializer(mode="wrap")
    def _as_sent(self, handler: Any) -> Any:
        """Only the fields given: a code transform stays `{"code": ...}`, a mask has no code."""
        data = handler(self)
        if isinstance(data, dict):
            for name in ("type", "code", "matcher", "expression", "replacement", "options"):
                if data.get(name) is None:
                    data.pop(name, None)
        return data


def step_problems(
    step: ProxyTransform, side: str, *, known_steps_only: bool = False, **_: Any
) -> list[tuple[str, str]]:
    """(field, message) for what keeps `step` out of the `side` pipeline: a type the side
    does not take (SIDE_TYPES), or what a step of its type lacks (ProxyTransform.problems)."""
    allowed = SIDE_TYPES[side]
    if step.kind not in allowed and (step.kind in TRANSFORM_TYPES or known_steps_only):
        listed = ", ".join(allowed[:-1]) + f" or {allowed[-1]}"
        known = step.kind in TRANSFORM_TYPES
        what = f"A {step.kind} step" if known else f"The step type {step.kind!r}"
        where = " (it goes in response transforms)" if known else ""
        return [
            ("type", f"{what} cannot be a {side} transform{where}: {side} transforms are {listed}.")
        ]
    return step.problems()


class TransformView(LenientModel):
    """A step as the service returns it: code, or another kind (see ProxyTransform)."""

    type: str | None = None
    code: str | None = None
    matcher: str | None = None
    expression: str | None = None
    replacement: str | None = None
    options: dict[str, Any] | None = None

    @property
    def is_code(self) -> bool:
        return self.type in (None, "code") and self.code is not None

    @property
    def kind(self) -> str:
        return self.type or "code"


class RequestedProxy(LenientModel):
    """A change being provisioned, or the one that failed and why (`requested`)."""

    proxy: dict[str, Any] | None = None
    error_code: str | None = None
    error_message: str | None = None
    error_details: dict[str, Any] | None = None


class ApplicationRef(BaseModel):
    """How a proxy payload names its application: `{"id": ...}`."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    id: UUID


class Proxy(ResponseModel):
    id: UUID
    tenant_id: UUID | None = None
    key: str | None = None
    name: str
    destination_url: str | None = None
    request_transform: TransformView | None = None
    response_transform: TransformView | None = None
    request_transforms: list[TransformView] | None = None
    response_transforms: list[TransformView] | None = None
    """The pipelines (the hosted service's); None from a service that has only the single
    transforms of the specification."""
    application_id: UUID | None = None
    configuration: dict[str, str | None] | None = None
    require_auth: bool = True
    disable_detokenization: bool | None = None
    timeout: int | None = None
    state: str | None = None
    requested: RequestedProxy | None = None
    proxy_host: str | None = None
    created_by: UUID | None = None
    created_at: UtcDateTime | None = None
    modified_by: UUID | None = None
    modified_at: UtcDateTime | None = None


def whole_number(value: Any) -> Any:
    """`23.0` is 23: JSON (and JSON Schema's `integer`) does not tell them apart, so a
    number with no fraction is a whole number; any other value is judged as is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Seconds = Annotated[int, Field(ge=TIMEOUT_MIN, le=TIMEOUT_MAX), BeforeValidator(whole_number)]

_BEYOND_SPEC = ("request_transforms", "response_transforms", "disable_detokenization", "timeout")


def _the_only_step(single: ProxyTransform, steps: list[ProxyTransform]) -> bool:
    """Whether a pipeline is `single` alone: a proxy read and sent back carries both, the
    single transform being the pipeline's only step (`{"code": ...}` and `{"type": "code",
    "code": ...}` are the same step)."""

    def step(transform: ProxyTransform) -> dict[str, Any]:
        data = transform.model_dump(mode="json")
        if data.get("type") == "code":
            del data["type"]
        return data

    return len(steps) == 1 and step(steps[0]) == step(single)


class ProxyCreate(RequestModel):
    """Body of `POST /proxies` and `PUT /proxies/{id}` (same fields and rules)."""

    name: Name
    destination_url: str = Field(
        min_length=1,
        max_length=DESTINATION_URL_MAX,
        json_schema_extra={"pattern": DESTINATION_URL_PATTERN},
    )
    request_transform: ProxyTransform | None = None
    response_transform: ProxyTransform | None = None
    request_transforms: list[ProxyTransform] | None = Field(default=None, max_length=TRANSFORMS_MAX)
    response_transforms: list[ProxyTransform] | None = Field(
        default=None, max_length=TRANSFORMS_MAX
    )
    application: ApplicationRef | None = None
    configuration: dict[str, str] | None = None
    require_auth: bool = True
    disable_detokenization: bool | None = None
    timeout: Seconds | None = None

    carried_back: ClassVar[tuple[str, ...]] = ("disable_detokenization", "timeout")

    @field_validator("destination_url")
    @classmethod
    def _a_destination_url(cls, value: str, info: ValidationInfo) -> str:
        """A URL as this project defines one; a proxy's own URL sent back unchanged
        (`kept_destination_url` in the parse context) is the service's to judge."""
        if value == (info.context or {}).get("kept_destination_url"):
            return value
        problem = destination_url_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    def rule_errors(self, **context: Any) -> dict[str, list[str]]:
        """Each step complete for its type and of a type its side takes (SIDE_TYPES); a
        pipeline and its single transform not both. A type this project does not know is
        carried through, unless the parse context says `known_steps_only=True` (the local
        service's: it keeps only the steps it knows)."""
        errors: dict[str, list[str]] = {}
        for side in ("request", "response"):
            single = getattr(self, f"{side}_transform")
            steps = getattr(self, f"{side}_transforms")
            if single is not None and steps is not None and not _the_only_step(single, steps):
                errors.setdefault(f"{side}_transforms", []).append(
                    f"Give {side}_transforms or {side}_transform, not both (unless the"
                    " pipeline's only step is that transform, as a proxy is read)."
                )
            for path, step in ([(f"{side}_transform", single)] if single is not None else []) + [
                (f"{side}_transforms[{i}]", s) for i, s in enumerate(steps or [])
            ]:
                for name, message in step_problems(step, side, **context):
                    errors.setdefault(f"{path}.{name}", []).append(message)
        return errors

    @model_serializer(mode="wrap")
    def _as_sent(self, handler: Any) -> Any:
        """The fields beyond the specification only when given: a spec service reads a body
        as it always did."""
        data = handler(self)
        if isinstance(data, dict):
            for name in _BEYOND_SPEC:
                if data.get(name) is None:
                    data.pop(name, None)
        return data

    def pipeline(self, side: str) -> list[ProxyTransform]:
        """The steps of one side, from the pipeline or the single transform."""
        steps = getattr(self, f"{side}_transforms")
        if steps is not None:
            return list(steps)
        single = getattr(self, f"{side}_transform")
        return [single] if single is not None else []


ProxyUpdate = ProxyCreate


class ProxyPatch(BaseModel):
    """Body of `PATCH /proxies/{id}` (application/merge-patch+json): what is given changes;
    `configuration` merges key by key (a null removes a key), a pipeline is replaced whole."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    name: Name | None = None
    destination_url: str | None = Field(default=None, min_length=1, max_length=DESTINATION_URL_MAX)
    request_transforms: list[ProxyTransform] | None = Field(default=None, max_length=TRANSFORMS_MAX)
    response_transforms: list[ProxyTransform] | None = Field(
        default=None, max_length=TRANSFORMS_MAX
    )
    application: ApplicationRef | None = None
    configuration: dict[str, str | None] | None = None
    require_auth: bool | None = None
    disable_detokenization: bool | None = None
    timeout: Seconds | None = None
