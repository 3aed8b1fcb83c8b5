"""`webhooks listen`'s receiver in the test's own loop: a delivery signed with the test's key
is answered 200 and printed; a forged one (another key, a body changed after signing, a
signature header missing or of another version) is answered 400 and refused on stderr,
never printed as an event; what it prints is escaped; forwarding posts the exact body and
headers on."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from listen_helpers import REACTOR_ID, Recorder, delivery, signed

from console.models.webhooks import SIGNATURE_HEADER, SIGNATURE_VERSION_HEADER
from console.webhooks import signing
from console.webhooks.listen import Arrival, Receiver, Refusal, bind, serve_receiver
from console.webhooks.listen_output import Forwarder, Printer

WAIT = 10.0


@pytest.fixture(scope="module")
def key() -> Any:
    return signing.new_private_key()


@pytest.fixture(scope="module")
def other_key() -> Any:
    return signing.new_private_key()


@dataclass
class Listening:
    """A receiver serving on a free loopback port, printing into buffers."""

    url: str
    printer: Printer
    out: io.StringIO
    err: io.StringIO
    handled: asyncio.Event
    answered: list[str]

    async def handled_one(self) -> None:
        """Until the receiver handed what it answered to its sink (it does so right after
        the answer, so the client may see the answer first)."""
        await asyncio.wait_for(self.handled.wait(), WAIT)
        self.handled.clear()


async def _listening(key: Any, **printer_options: Any) -> AsyncIterator[Listening]:
    out, err = io.StringIO(), io.StringIO()
    printer = Printer(out=out, err=err, **printer_options)
    handled = asyncio.Event()
    answered: list[str] = []

    def on_delivery(arrival: Arrival) -> None:
        printer.delivery(arrival)
        answered.append("delivery")
        handled.set()

    def on_refusal(refusal: Refusal) -> None:
        printer.refusal(refusal)
        answered.append("refusal")
        handled.set()

    receiver = Receiver(key.public_key(), on_delivery, on_refusal, max_body=64 * 1024)
    served = await serve_receiver(receiver, bind("127.0.0.1", 0))
    try:
        yield Listening(f"http://127.0.0.1:{served.port}/", printer, out, err, handled, answered)
    finally:
        await served.stop()


@pytest.fixture
async def listening(key: Any) -> AsyncIterator[Listening]:
    async for running in _listening(key):
        yield running


async def _post(url: str, body: bytes, headers: dict[str, str]) -> httpx.Response:
    async with httpx.AsyncClient(timeout=WAIT) as client:
        return await client.post(url, content=body, headers=headers)


async def test_a_signed_delivery_is_answered_200_and_printed(listening, key):
    body, headers = signed(key, delivery("reactor.created", name="Enricher"))
    response = await _post(listening.url, body, headers)
    await listening.handled_one()
    assert response.status_code == 200
    line = listening.out.getvalue()
    assert line.count("\n") == 1
    assert "reactor.created" in line and REACTOR_ID in line and '"Enricher"' in line
    assert "delivered 250 ms after the event" in line
    assert "[0b8f1d2e-0000-4000-8000-0000000000e1]" in line
    assert listening.err.getvalue() == ""


async def test_any_path_is_a_delivery(listening, key):
    body, headers = signed(key, delivery())
    response = await _post(listening.url + "hooks/bt", body, headers)
    await listening.handled_one()
    assert response.status_code == 200 and "reactor.created" in listening.out.getvalue()


@pytest.mark.parametrize(
    "forgery",
    ["another key", "body changed", "no signature", "no version", "version v2", "not base64"],
)
async def test_a_forged_delivery_is_answered_400_and_refused(listening, key, other_key, forgery):
    document = delivery("application.key.created")
    body, headers = signed(other_key if forgery == "another key" else key, document)
    if forgery == "body changed":
        document["event"]["data"]["application_key"]["name"] = "Changed"
        body = json.dumps(document).encode()
    elif forgery == "no signature":
        del headers[SIGNATURE_HEADER]
    elif forgery == "no version":
        del headers[SIGNATURE_VERSION_HEADER]
    elif forgery == "version v2":
        headers[SIGNATURE_VERSION_HEADER] = "v2"
    elif forgery == "not base64":
        headers[SIGNATURE_HEADER] = "not base64 at all!"
    response = await _post(listening.url, body, headers)
    await listening.handled_one()
    assert response.status_code == 400
    assert listening.out.getvalue() == ""  # nothing printed as an event
    refused = listening.err.getvalue()
    assert "refused a request from 127.0.0.1:" in refused and "(answered 400)" in refused
    assert "application.key.created" not in refused  # never the body
    assert listening.answered == ["refusal"]


async def test_a_refusal_line_escapes_what_the_sender_sent(listening, key):
    body, headers = signed(key, delivery())
    headers[SIGNATURE_VERSION_HEADER] = "v\x1b]52;c;aGk=\x07"  # OSC 52: write the clipboard
    response = await _post(listening.url, body, headers)
    await listening.handled_one()
    assert response.status_code == 400
    refused = listening.err.getvalue()
    assert "\x1b" not in refused and "\x07" not in refused and "\\x1b]52" in refused


async def test_a_body_over_the_cap_is_answered_413(listening, key):
    document = delivery()
    document["event"]["data"]["reactor"]["name"] = "x" * (70 * 1024)
    body, headers = signed(key, document)
    response = await _post(listening.url, body, headers)
    await listening.handled_one()
    assert response.status_code == 413
    assert listening.out.getvalue() == "" and "(answered 413)" in listening.err.getvalue()


async def test_only_post_is_taken(listening):
    async with httpx.AsyncClient(timeout=WAIT) as client:
        response = await client.get(listening.url)
    await listening.handled_one()
    assert response.status_code == 405 and response.headers["allow"] == "POST"
    assert listening.out.getvalue() == ""


async def test_control_characters_in_an_event_are_escaped(listening, key):
    body, headers = signed(key, delivery(name="Evil\x1b[2J\x9b\u202eName\r\n"))
    assert (await _post(listening.url, body, headers)).status_code == 200
    await listening.handled_one()
    line = listening.out.getvalue()
    assert line.count("\n") == 1
    for raw in ("\x1b", "\x9b", "\u202e", "\r"):
        assert raw not in line
    assert "Evil\\x1b[2J\\x9b\\u202eName\\r\\n" in line


async def test_json_lines_parse_and_carry_the_delivery_and_verified(key):
    async for listening in _listening(key, json_format=True):
        sent = [delivery("reactor.created"), delivery("proxy.updated", name="Edge\x1b")]
        for document in sent:
            body, headers = signed(key, document)
            assert (await _post(listening.url, body, headers)).status_code == 200
            await listening.handled_one()
        lines = listening.out.getvalue().splitlines()
        assert "\x1b" not in listening.out.getvalue()
        assert [json.loads(line) for line in lines] == [
            {**document, "verified": True} for document in sent
        ]


async def test_events_filters_what_is_printed(key):
    async for listening in _listening(key, events=["proxy.updated"]):
        for kind in ("reactor.created", "proxy.updated"):
            body, headers = signed(key, delivery(kind))
            assert (await _post(listening.url, body, headers)).status_code == 200
            await listening.handled_one()
        printed = listening.out.getvalue().splitlines()
        assert len(printed) == 1 and "proxy.updated" in printed[0]


async def test_forwarding_posts_the_exact_body_and_headers(key):
    recorder = await Recorder(status=202).start()
    reported: list[str] = []
    said = asyncio.Event()

    def report(line: str) -> None:
        reported.append(line)
        said.set()

    forwarder = Forwarder(recorder.base_url + "/webhooks?x=1", report)
    try:
        async for listening in _listening(key, forward=forwarder.submit):
            body, headers = signed(key, delivery())
            body = body.replace(b", ", b",  ")  # spacing a re-encoding would lose
            assert (await _post(listening.url, body, headers)).status_code == 200
            await asyncio.wait_for(said.wait(), WAIT)
    finally:
        await forwarder.close()
        await recorder.stop()
    assert reported == ["  reactor.created → 202"]
    [(request_line, forwarded, forwarded_body)] = recorder.requests
    assert request_line == "POST /webhooks?x=1 HTTP/1.1"
    assert forwarded_body == body
    for name in (SIGNATURE_HEADER, SIGNATURE_VERSION_HEADER, "Content-Type"):
        assert forwarded[name] == headers[name]


async def test_a_forward_nobody_answers_says_connection_refused(key):
    closed = bind("127.0.0.1", 0)  # bound, then closed: nothing listens on its port
    port = closed.getsockname()[1]
    closed.close()
    reported: list[str] = []
    said = asyncio.Event()

    def report(line: str) -> None:
        reported.append(line)
        said.set()

    forwarder = Forwarder(f"http://127.0.0.1:{port}/", report)
    try:
        async for listening in _listening(key, forward=forwarder.submit):
            body, headers = signed(key, delivery())
            # the service is answered 200 whatever the forward does
            assert (await _post(listening.url, body, headers)).status_code == 200
            await asyncio.wait_for(said.wait(), WAIT)
    finally:
        await forwarder.close()
    assert reported == ["  reactor.created → connection refused"]
