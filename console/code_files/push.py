"""Pushing a local file's code to a formula, a proxy's transform or a reactor, through the
forms' guard.

The object is found by its exact name (two with that name: refused, both listed). Each push
reads the object again and refuses when someone changed it since the version the push is based
on (the first read, then each push's answer), exactly as a form refuses a lost update; after a
refusal their version becomes the base, so pushing again overwrites it knowingly. The update
sends back every field as read, unknown ones included, with only the code replaced; a proxy
read with pipelines keeps them (a side of more than one step cannot take one file's code, and
the push is refused). A reactor's code goes as a merge patch of its code alone (its
configuration never travels), and its code is the one asked for while a change is provisioned.
A PUT or PATCH is never repeated automatically: the client used here retries reads only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from console.client.guard import changed_since, modified_at
from console.code_diff import line_diff
from console.kinds import PROXIES, REACTORS
from console.models.as_request import formula_request, proxy_request
from console.models.errors import PayloadInvalid
from console.models.round_trip import keep_item_fields, update_body

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.models import Proxy, Reactor, ReactorFormula
    from console.models.proxies import TransformView

PushKind = Literal["formula", "transform", "reactor"]
TRANSFORM_FIELDS = {"request": "request_transform", "response": "response_transform"}


class PushRefused(Exception):
    """A push that was not made; str() says why, in a sentence or a few lines."""


class ConcurrentChange(PushRefused):
    """Someone changed the object since the version the push was based on."""

    def __init__(self, message: str, diff: list[str]) -> None:
        super().__init__(message)
        self.diff = diff
        """Their code (on the server now) against the file's, as unified diff lines."""


def when(obj: Any) -> str:
    """The object's modification time in local time, for one line of output."""
    at = modified_at(obj)
    return at.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z") if at else "at an unknown time"


@dataclass
class PushTarget:
    """The object a file is pushed to, and the version the next push is based on."""

    kind: PushKind
    field: str | None
    """For a transform: `request_transform` or `response_transform`."""
    base: ReactorFormula | Proxy | Reactor

    @property
    def noun(self) -> str:
        if self.kind == "formula":
            return f'formula "{self.base.name}"'
        if self.kind == "reactor":
            return f'{REACTORS.nouns.singular} "{self.base.name}"'
        assert self.field is not None
        return f'{self.field.replace("_", " ")} of {PROXIES.nouns.singular} "{self.base.name}"'

    def request_of(self, obj: Any) -> dict[str, Any]:
        if self.kind == "formula":
            return formula_request(obj)
        if self.kind == "reactor":
            return reactor_request(obj)
        return {**proxy_request(obj), **pipelines_of(obj)}

    def code_of(self, obj: Any) -> str:
        if self.kind == "formula":
            return str(obj.code or "")
        if self.kind == "reactor":
            return reactor_code(obj)
        transform = transform_of(obj, self.field or "")
        return str(transform.code or "") if transform is not None else ""

    def body(self, obj: Any, code: str) -> dict[str, Any]:
        """The update: `obj` as read, with the code replaced (see the module's docstring)."""
        from console.models import ProxyCreate, ReactorFormulaCreate

        payload = self.request_of(obj)
        try:
            if self.kind == "formula":
                payload["code"] = code
                held = {i.type for i in (*obj.configuration, *obj.request_parameters)}
                body = update_body(obj, ReactorFormulaCreate.parse(payload, held_value_types=held))
                body["configuration"] = keep_item_fields(
                    body.get("configuration") or [], obj.configuration, "name"
                )
                body["request_parameters"] = keep_item_fields(
                    body.get("request_parameters") or [], obj.request_parameters, "name"
                )
                return body
            assert self.field is not None
            payload[self.field] = {"code": code}
            for side, steps in pipelines_of(obj).items():
                if side.startswith(self.field):  # this side: the pushed code is its one step
                    payload.pop(self.field)
                    payload[side] = [{"code": code}]
                else:
                    payload.pop(side.removesuffix("s"), None)
                    payload[side] = steps
            if payload["configuration"]:
                payload["configuration"] = {k: v or "" for k, v in payload["configuration"].items()}
            model = ProxyCreate.parse(payload, kept_destination_url=obj.destination_url)
            return update_body(obj, model)
        except PayloadInvalid as invalid:
            problems = "; ".join(
                f"{path}: {sentence}" if path else sentence
                for path, sentences in invalid.errors.items()
                for sentence in sentences
            )
            raise PushRefused(
                f"Not pushed: the {self.noun} cannot be saved so: {problems}"
            ) from None


@dataclass(frozen=True)
class PushOutcome:
    """What a push did: `pushed` False when the server already held this code."""

    obj: Any
    pushed: bool


async def find_target(
    client: AdminClient, kind: PushKind, name: str, side: str | None = None
) -> PushTarget:
    """The object named exactly `name`, read afresh; PushRefused if there is none, more than
    one, or it cannot take code (an official formula, a transform of another kind)."""
    candidates: list[Any]
    if kind == "formula":
        candidates = [f async for f in client.reactor_formulas.iterate(name=name)]
        noun = "formula"
    elif kind == "reactor":
        candidates = [r async for r in client.reactors.iterate(name=name)]
        noun = REACTORS.nouns.singular
    else:
        candidates = [p async for p in client.proxies.iterate(name=name)]
        noun = PROXIES.nouns.singular
    matches = [c for c in candidates if c.name == name]
    if not matches:
        near = sorted({c.name for c in candidates if c.name.casefold() == name.casefold()})
        hint = f" Did you mean {', '.join(repr(n) for n in near)}?" if near else ""
        raise PushRefused(f'No {noun} is named "{name}".{hint}')
    if len(matches) > 1:
        listed = "\n".join(f"  {m.id}  modified {when(m)}" for m in matches)
        plural = {"transform": PROXIES.nouns.plural, "reactor": REACTORS.nouns.plural}.get(
            kind, f"{noun}s"
        )
        raise PushRefused(
            f"{len(matches)} {plural} are named "
            f'"{name}"; not pushed to any. Rename one so the name says which:\n{listed}'
        )
    if kind == "reactor":
        return PushTarget("reactor", None, await client.reactors.get(matches[0].id))
    if kind == "formula":
        formula = await client.reactor_formulas.get(matches[0].id)
        if formula.type != "private":
            raise PushRefused(
                f'The formula "{name}" is {formula.type}: only the tenant\'s private formulas '
                "can be changed."
            )
        return PushTarget("formula", None, formula)
    field = TRANSFORM_FIELDS[side or "request"]
    proxy = await client.proxies.get(matches[0].id)
    steps = pipelines_of(proxy).get(f"{field}s") or []
    if len(steps) > 1:
        raise PushRefused(
            f'The {field.replace("_", " ")} of proxy "{name}" is a pipeline of {len(steps)} '
            "steps; one file's code cannot replace it. Change it in the console."
        )
    transform = transform_of(proxy, field)
    if transform is not None and not transform.is_code:
        raise PushRefused(
            f'The {field.replace("_", " ")} of proxy "{name}" is a {transform.kind} transform, '
            "not code; pushing code would replace it. Change it in the console if you mean to."
        )
    return PushTarget("transform", field, proxy)


def transform_of(proxy: Proxy, field: str) -> TransformView | None:
    """A proxy's request or response transform, by its field's name (TRANSFORM_FIELDS): the
    single transform, or the only step of its pipeline."""
    request = field == TRANSFORM_FIELDS["request"]
    single = proxy.request_transform if request else proxy.response_transform
    steps = proxy.request_transforms if request else proxy.response_transforms
    if single is None and steps is not None and len(steps) == 1:
        return steps[0]
    return single


def pipelines_of(proxy: Proxy) -> dict[str, list[dict[str, Any]]]:
    """The proxy's pipelines as a request sends them (`request_transforms`: [...]), for the
    sides the service read back as pipelines; none from a specification-era service."""
    from console.models.as_request import transform_request

    found = {}
    for field in TRANSFORM_FIELDS.values():
        steps = getattr(proxy, f"{field}s", None)
        if steps is not None:
            found[f"{field}s"] = [transform_request(step) or {} for step in steps]
    return found


def reactor_code(reactor: Reactor) -> str:
    """A reactor's code: the one being provisioned while a change is, else the active one."""
    requested = reactor.requested.reactor if reactor.requested else None
    if reactor.provisioning and requested is not None and requested.code is not None:
        return requested.code
    return str(reactor.code or "")


def reactor_request(reactor: Reactor) -> dict[str, Any]:
    """What the guard compares of a reactor: the fields a person writes (its code as
    `reactor_code` says). Never its configuration's values: only their names."""
    runtime = reactor.runtime.model_dump(mode="json", by_alias=True) if reactor.runtime else None
    application = reactor.application.id if reactor.application else None
    return {
        "name": reactor.name,
        "code": reactor_code(reactor),
        "application": str(application) if application else None,
        "configuration": sorted(reactor.configuration or {}),
        "runtime": runtime,
    }


class CodePusher:
    """Pushes code to one target, each time through the lost-update guard."""

    def __init__(self, client: AdminClient, target: PushTarget) -> None:
        self.client = client
        self.target = target

    async def _read(self) -> Any:
        if self.target.kind == "formula":
            return await self.client.reactor_formulas.get(self.target.base.id)
        if self.target.kind == "reactor":
            return await self.client.reactors.get(self.target.base.id)
        return await self.client.proxies.get(self.target.base.id)

    def _changed_since(self, current: Any) -> bool:
        """The lost-update guard. A reactor's `modified_at` may move when its provisioning
        ends, which is no one's change: its writable fields alone tell."""
        target = self.target
        if target.kind == "reactor":
            return target.request_of(target.base) != target.request_of(current)
        return changed_since(target.base, current, target.request_of)

    async def push(self, code: str, *, source: str = "the file") -> PushOutcome:
        """Sends `code` unless someone changed the object since `target.base` (then
        ConcurrentChange, and their version becomes the base) or it holds this code already."""
        target = self.target
        if not code.strip():
            raise PushRefused(f"Not pushed: {source} is empty.")
        current = await self._read()
        if self._changed_since(current):
            target.base = current  # their version is the new base: a second push overwrites it
            diff = line_diff(
                target.code_of(current),
                code,
                old_label=f"{target.noun} (on the server, modified {when(current)})",
                new_label=source,
            )
            raise ConcurrentChange(
                f"Not pushed: the {target.noun} was changed by someone else "
                f"(modified {when(current)}) since this push's version of it.",
                diff,
            )
        if target.code_of(current) == code:
            target.base = current
            return PushOutcome(current, pushed=False)
        if target.kind == "reactor":
            from console.models import ReactorPatch

            await self.client.reactors.patch(current.id, ReactorPatch(code=code))
            target.base = await self.client.reactors.get(current.id)  # PATCH answers 204
            return PushOutcome(target.base, pushed=True)
        body = target.body(current, code)
        if target.kind == "formula":
            result: Any = await self.client.reactor_formulas.update(current.id, body)
        else:
            result = await self.client.proxies.update(current.id, body)
        target.base = result
        return PushOutcome(result, pushed=True)
