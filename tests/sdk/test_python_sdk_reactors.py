"""Reactors through the vendor's Python SDK (`basistheoryclient`): every route, read into the
SDK's own models, and the errors as the SDK raises them.

The SDK is the hosted service's client: a ParsingError (an answer its models cannot read)
is a difference of the local service's, never a test to loosen.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from basis_theory.core.api_error import ApiError
from basis_theory.errors import (
    BadRequestError,
    ForbiddenError,
    NotFoundError,
    UnauthorizedError,
    UnprocessableEntityError,
)
from basis_theory.types import (
    Application,
    AsyncReactResponse,
    ProblemDetails,
    Reactor,
    ReactorRuntime,
    ReactResponse,
    ValidationProblemDetails,
)
from sdk_clients import (
    ECHO_CODE,
    NO_FUNCTION_CODE,
    SLOW_CODE,
    STATUS_CODE,
    THROWING_CODE,
    SdkTenant,
    python_client,
    wait_for,
)

RUNTIME = ReactorRuntime(image="node22", timeout=5, resources="standard", warm_concurrency=0)


@pytest.fixture(scope="module")
def bt(sdk_tenant: SdkTenant) -> Any:
    """The management key's client."""
    return python_client(sdk_tenant.base_url, sdk_tenant.management_key)


@pytest.fixture(scope="module")
def invoker(sdk_tenant: SdkTenant) -> Any:
    """The private `reactor:invoke` application's client."""
    return python_client(sdk_tenant.base_url, sdk_tenant.invoke_key)


def _settled(bt: Any, reactor_id: str, state: str = "active") -> Reactor:
    reactor: Reactor = wait_for(
        lambda: bt.reactors.get(reactor_id),
        lambda r: r.state == state,
        f"reactor {reactor_id} becoming {state}",
    )
    return reactor


def _reactor(bt: Any, name: str, code: str, **fields: Any) -> Reactor:
    """A reactor with a runtime, once it is active."""
    created = bt.reactors.create(name=name, code=code, runtime=RUNTIME, **fields)
    assert isinstance(created, Reactor) and created.id
    return _settled(bt, created.id)


@pytest.fixture(scope="module")
def echo(bt: Any, sdk_tenant: SdkTenant) -> Reactor:
    return _reactor(
        bt,
        "Echo",
        ECHO_CODE,
        configuration={"SECRET": "s3cr3t"},
        application=Application(id=sdk_tenant.invoke_application_id),
    )


def test_create_with_a_runtime_is_provisioned_then_read_back(
    bt: Any, sdk_tenant: SdkTenant
) -> None:
    runtime = ReactorRuntime(
        image="node22", timeout=5, resources="standard", permissions=["token:read"], async_=True
    )
    created = bt.reactors.create(
        name="Provisioned",
        code=ECHO_CODE,
        configuration={"API_KEY": "k"},
        runtime=runtime,
        application=Application(id=sdk_tenant.invoke_application_id),
    )
    assert created.state == "creating"
    assert created.tenant_id == sdk_tenant.tenant_id and created.created_at is not None
    assert created.runtime is not None and created.runtime.image == "node22"
    assert created.runtime.timeout == 5 and created.runtime.resources == "standard"
    assert created.runtime.async_ is True and created.runtime.permissions == ["token:read"]
    active = _settled(bt, created.id)
    assert active.requested is None
    assert active.name == "Provisioned" and active.code == ECHO_CODE
    assert active.configuration == {"API_KEY": "k"}
    assert active.application is not None
    assert active.application.id == sdk_tenant.invoke_application_id
    assert active.runtime == created.runtime


def test_a_reactor_without_runtime_is_active_at_once(bt: Any) -> None:
    created = bt.reactors.create(name="Legacy", code=ECHO_CODE)
    assert created.state == "active" and created.requested is None


def test_list_is_walked_by_the_sdks_pager_and_filtered(bt: Any) -> None:
    made = [bt.reactors.create(name=f"Paged {n}", code=ECHO_CODE) for n in range(3)]
    pager = bt.reactors.list(name="paged*", size=2)
    first = pager.response.pagination
    assert first.page_number == 1 and first.page_size == 2
    assert first.total_items == 3 and first.total_pages == 2
    assert [len(page.items) for page in pager.iter_pages()] == [2, 1]
    assert sorted(r.name for r in pager) == ["Paged 0", "Paged 1", "Paged 2"]
    assert all(isinstance(r, Reactor) for r in pager)

    two = bt.reactors.list(id=[made[0].id, made[2].id])
    assert sorted(r.id for r in two) == sorted([made[0].id, made[2].id])
    assert [r.id for r in bt.reactors.list(id=made[1].id)] == [made[1].id]
    assert list(bt.reactors.list(name="no such reactor")) == []


def test_list_by_cursor(bt: Any) -> None:
    """`start` pages by an opaque cursor: `after` names the next page and no totals are
    given. The SDK's pager steps `page` beside the same `start` (pages after the cursor), so
    it walks every item from a cursor too."""
    made = {bt.reactors.create(name=f"Cursor {n}", code=ECHO_CODE).id for n in range(3)}
    seen: list[str] = []
    start = ""
    for _ in range(5):
        page = bt.reactors.list(name="cursor*", size=2, start=start)
        pagination = page.response.pagination
        assert pagination.total_items is None and pagination.total_pages is None
        seen += [r.id for r in page.items]
        if not pagination.after:
            break
        start = pagination.after
    assert len(seen) == 3 and set(seen) == made
    assert sorted(r.id for r in bt.reactors.list(name="cursor*", size=2, start="")) == sorted(made)


def test_update_is_provisioned_while_the_old_version_serves(bt: Any, invoker: Any) -> None:
    reactor = _reactor(bt, "Updated", ECHO_CODE, configuration={"V": "1"})
    new_code = ECHO_CODE.replace("echoed", "updated")
    answer = bt.reactors.update(
        reactor.id, name="Updated twice", code=new_code, configuration={"V": "2"}, runtime=RUNTIME
    )
    assert isinstance(answer, Reactor) and answer.state == "updating"
    assert answer.name == "Updated twice"
    assert answer.requested is not None and answer.requested.reactor is not None
    assert answer.requested.reactor.code == new_code
    active = _settled(bt, reactor.id)
    assert active.code == new_code and active.configuration == {"V": "2"}
    assert active.requested is None
    react = invoker.reactors.react(reactor.id, request={"args": {"n": 1}})
    assert react.body == {"updated": {"n": 1}}


def test_patch_answers_no_content_and_merges(bt: Any) -> None:
    reactor = _reactor(bt, "Patched", ECHO_CODE, configuration={"A": "1", "B": "2"})
    assert bt.reactors.patch(reactor.id, name="Patched again") is None
    renamed = bt.reactors.get(reactor.id)
    assert renamed.name == "Patched again" and renamed.code == ECHO_CODE
    assert renamed.configuration == {"A": "1", "B": "2"}
    raw = bt.reactors.with_raw_response.patch(reactor.id, configuration={"B": None, "C": "3"})
    assert raw.status_code == 204
    merged = _settled(bt, reactor.id)
    assert merged.configuration == {"A": "1", "C": "3"}
    assert merged.runtime == RUNTIME


def test_delete_then_get_is_not_found(bt: Any) -> None:
    reactor = bt.reactors.create(name="Deleted", code=ECHO_CODE)
    assert bt.reactors.delete(reactor.id) is None
    with pytest.raises(NotFoundError) as raised:
        bt.reactors.get(reactor.id)
    assert raised.value.status_code == 404
    with pytest.raises(NotFoundError):
        bt.reactors.delete(reactor.id)


def test_react_is_read_into_a_react_response(invoker: Any, echo: Reactor) -> None:
    answer = invoker.reactors.with_raw_response.react(
        echo.id, request={"args": {"card": {"number": "4242"}}}
    )
    assert answer.status_code == 200
    react = answer.data
    assert isinstance(react, ReactResponse)
    card = {"card": {"number": "4242"}}
    assert react.raw == {"args": card, "configuration": {"SECRET": "s3cr3t"}}
    assert react.body == {"echoed": card}
    assert react.headers == {"x-echo": "yes"}
    assert react.tokens is None


def test_a_tokenize_result_answers_no_tokens_and_says_why(bt: Any, invoker: Any) -> None:
    """The local service keeps no tokens: `tokens` is null, and a header says so."""
    code = "module.exports = async () => ({ tokenize: { card: '4242' }, raw: { ok: true } });"
    reactor = _reactor(bt, "Tokenizing", code)
    answer = invoker.reactors.with_raw_response.react(reactor.id, request={"args": {}})
    assert answer.data.tokens is None and answer.data.raw == {"ok": True}
    assert answer.headers.get("bt-local-note")


def test_react_async_is_pending_then_done(bt: Any, invoker: Any) -> None:
    slow = _reactor(bt, "Slow", SLOW_CODE)
    accepted = invoker.reactors.with_raw_response.react_async(slow.id, request={"args": {"n": 7}})
    assert accepted.status_code == 202
    assert isinstance(accepted.data, AsyncReactResponse)
    request_id = accepted.data.async_reactor_request_id
    assert request_id is not None and uuid.UUID(request_id)

    first = invoker.reactors.results.with_raw_response.get(slow.id, request_id)
    assert (first.status_code, first.data) == (202, {"status": "pending"})
    done = wait_for(
        lambda: invoker.reactors.results.with_raw_response.get(slow.id, request_id),
        lambda answer: answer.status_code != 202,
        "the async result",
    )
    assert done.status_code == 200
    assert ReactResponse.model_validate(done.data).raw == {"slept": True, "args": {"n": 7}}
    with pytest.raises(NotFoundError):
        invoker.reactors.results.get(slow.id, str(uuid.uuid4()))


def test_invalid_bodies_are_bad_requests_with_errors(bt: Any) -> None:
    for runtime in (
        ReactorRuntime(image="node8"),
        ReactorRuntime(image="node22", timeout=99),
        ReactorRuntime(image="node22", permissions=["no:such:permission"]),
    ):
        with pytest.raises(BadRequestError) as raised:
            bt.reactors.create(name="Bad", code=ECHO_CODE, runtime=runtime)
        body = raised.value.body
        assert isinstance(body, ValidationProblemDetails) and body.status == 400
        assert body.errors, body


def test_unknown_ids_are_not_found(bt: Any, invoker: Any) -> None:
    unknown = str(uuid.uuid4())
    for call in (
        lambda: bt.reactors.get(unknown),
        lambda: bt.reactors.update(unknown, name="x", code=ECHO_CODE),
        lambda: bt.reactors.patch(unknown, name="x"),
        lambda: invoker.reactors.react(unknown, request={"args": {}}),
        lambda: invoker.reactors.react_async(unknown, request={"args": {}}),
    ):
        with pytest.raises(NotFoundError) as raised:
            call()
        assert raised.value.status_code == 404


def test_missing_permissions_are_forbidden(
    bt: Any, invoker: Any, echo: Reactor, sdk_service: Any, sdk_tenant: SdkTenant
) -> None:
    with pytest.raises(ForbiddenError) as raised:
        invoker.reactors.list()
    assert isinstance(raised.value.body, ProblemDetails) and raised.value.body.status == 403
    with pytest.raises(ForbiddenError):
        invoker.reactors.create(name="Not mine", code=ECHO_CODE)
    with pytest.raises(UnauthorizedError) as unknown_key:
        python_client(sdk_tenant.base_url, "not-a-key").reactors.get(echo.id)
    assert unknown_key.value.status_code == 401
    reader = python_client(
        sdk_tenant.base_url,
        sdk_service.new_key(["reactor:read"], tenant_key=sdk_tenant.management_key),
    )
    assert reader.reactors.get(echo.id).id == echo.id
    for call in (
        lambda: reader.reactors.react(echo.id, request={"args": {}}),
        lambda: reader.reactors.react_async(echo.id, request={"args": {}}),
        lambda: reader.reactors.delete(echo.id),
    ):
        with pytest.raises(ForbiddenError):
            call()


def test_code_that_is_no_function_is_unprocessable(bt: Any, invoker: Any) -> None:
    reactor = _reactor(bt, "Not a function", NO_FUNCTION_CODE)
    with pytest.raises(UnprocessableEntityError) as raised:
        invoker.reactors.react(reactor.id, request={"args": {}})
    body = raised.value.body
    assert isinstance(body, ProblemDetails) and body.status == 422
    assert "not a valid function" in f"{body.title} {body.detail}"


def test_errors_the_code_throws_keep_their_status(bt: Any, invoker: Any) -> None:
    throwing = _reactor(bt, "Throwing", THROWING_CODE)
    with pytest.raises(ApiError) as raised:
        invoker.reactors.react(throwing.id, request={"args": {}})
    assert raised.value.status_code == 500
    assert raised.value.body["title"] == "Reactor Runtime Error"
    assert raised.value.body["errors"] == {"error": ["card declined"]}

    with_status = _reactor(bt, "Declining", STATUS_CODE)
    with pytest.raises(ApiError) as raised:
        invoker.reactors.react(with_status.id, request={"args": {}})
    assert raised.value.status_code == 402
    assert raised.value.body["errors"] == {"card": ["Invalid card"]}

    # Run asynchronously, the same failure is the result's answer.
    accepted = invoker.reactors.react_async(with_status.id, request={"args": {}})
    request_id = accepted.async_reactor_request_id

    def result() -> Any:
        try:
            return invoker.reactors.results.with_raw_response.get(with_status.id, request_id)
        except ApiError as error:
            return error

    failed = wait_for(result, lambda a: isinstance(a, ApiError), "the failed async result")
    assert failed.status_code == 402 and failed.body["errors"] == {"card": ["Invalid card"]}


def test_a_reactor_that_cannot_be_provisioned_fails_and_is_not_invoked(
    bt: Any, invoker: Any
) -> None:
    created = bt.reactors.create(
        name="Dependent",
        code=ECHO_CODE,
        runtime=ReactorRuntime(image="node22", dependencies={"left-pad": "1.3.0"}),
    )
    failed = _settled(bt, created.id, "failed")
    assert failed.requested is not None
    assert failed.requested.error_code == "dependencies_unavailable"
    assert "left-pad" in (failed.requested.error_message or "")
    with pytest.raises(ApiError) as raised:
        invoker.reactors.react(created.id, request={"args": {}})
    assert raised.value.status_code == 409
