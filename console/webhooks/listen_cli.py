"""`tenant-console webhooks listen`: receive the tenant's webhooks here, as `stripe listen`.

It listens on loopback (`--port`, 0: a free one), checks each delivery's signature with the
service's public key (the local service's at /keys/webhooks.v1.key, the hosted service's at
its CDN, or `--signing-key FILE`), prints each verified one (console.webhooks.listen_output)
and, with `--forward-to URL`, posts it on to that URL. The service gets 200 for a verified
delivery whatever the forward's result, and 400 for one that does not verify.

Against the local service it registers a webhook for itself (every event type, or those of
`--events`) pointing at its port, and deletes it when it ends: Ctrl+C, SIGTERM, an error.
Which service it talks to it asks the service: the local one serves its webhook key at
LOCAL_KEY_PATH, the hosted one has no such route. The hosted service cannot reach a laptop:
there it registers the URL of a tunnel the user runs (`--public-url`, with the `--port` the
tunnel forwards to), or nothing (`--no-register`, for a webhook made by hand).

Exit codes: 0 stopped (Ctrl+C, SIGTERM); 1 failed (the service, the tenant's five webhooks
taken, the port); 2 usage (an unknown event type, a URL that cannot be one, the hosted
service without --public-url, an unreadable --signing-key file).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console.cli_support import Command, Refused, quiet_logging

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

    from console.profiles.resolve import ResolvedConnection
    from console.webhooks.listen_output import Forwarder, Printer
    from console.webhooks.registration import Registered, WebhookRoutes

OK, FAILED, USAGE = 0, 1, 2
KEY_TIMEOUT = 10.0
"""Seconds to fetch the service's public key."""

COMMAND = Command("tenant-console webhooks listen")

HOSTED_CANNOT_REACH = (
    "The hosted service cannot reach this machine, so listen cannot register a loopback URL "
    "with it. Run a tunnel to a local port (e.g. `cloudflared tunnel --url "
    "http://127.0.0.1:8765` or `ngrok http 8765`) and give listen that port and the tunnel's "
    "URL: --port 8765 --public-url https://...; or --no-register to receive for a webhook "
    "you made yourself."
)


@dataclass(frozen=True)
class ListenOptions:
    """The command line, checked."""

    host: str
    port: int
    events: list[str] | None
    forward_to: str | None
    public_url: str | None
    register: bool
    signing_key: Path | None
    service_url: str | None
    """With --no-register: the local service whose public key deliveries verify with."""
    json_format: bool
    profile: str | None


def checked_options(args: argparse.Namespace) -> ListenOptions:
    """The options, or Refused (exit 2) naming the first that cannot be used."""
    from console.models.webhooks import event_type_problem, webhook_url_problem

    events: list[str] | None = None
    if args.events is not None:
        events = []
        for kind in (part.strip() for part in args.events.split(",")):
            problem = event_type_problem(kind)
            if problem:
                raise Refused(f"--events: {problem}", USAGE)
            if kind not in events:
                events.append(kind)
    for option, url in (("--forward-to", args.forward_to), ("--public-url", args.public_url)):
        problem = webhook_url_problem(url) if url is not None else None
        if problem:
            raise Refused(f"{option}: {problem}", USAGE)
    service_url = getattr(args, "service_url", None)
    if service_url is not None:
        problem = webhook_url_problem(service_url)
        if problem:
            raise Refused(f"--service-url: {problem}", USAGE)
        if not args.no_register:
            raise Refused(
                "--service-url only names where the key is read: use it with --no-register "
                "(a registering listen reads the key from its profile's service).",
                USAGE,
            )
        if args.signing_key:
            raise Refused("Give the key one way: --signing-key or --service-url.", USAGE)
    if args.public_url is not None and args.no_register:
        raise Refused("--public-url registers a webhook: not with --no-register.", USAGE)
    if args.public_url is not None and args.port == 0:
        raise Refused("--public-url needs --port: the port your tunnel forwards to.", USAGE)
    return ListenOptions(
        host=args.host,
        port=args.port,
        events=events,
        forward_to=args.forward_to,
        public_url=args.public_url,
        register=not args.no_register,
        signing_key=Path(args.signing_key) if args.signing_key else None,
        service_url=service_url,
        json_format=args.format == "json",
        profile=getattr(args, "profile", None),
    )


def listen(args: argparse.Namespace) -> int:
    """The command's handler (console.cli's HANDLERS, through the `webhooks` group)."""
    quiet_logging()
    try:
        options = checked_options(args)
        key = _key_from_file(options.signing_key) if options.signing_key else None
        if options.service_url is not None:
            key = asyncio.run(_key_of_service(options.service_url))
    except Refused as refused:
        return COMMAND.refused(refused)
    connection: ResolvedConnection | None = None
    if options.register:
        connection = COMMAND.connect(options.profile)
        if connection is None:
            return FAILED
    elif key is None:
        connection = _connection_without_key(options.profile)
        if connection is None:
            return FAILED
    from console.client import ApiError

    try:
        return asyncio.run(Listening(options, connection, key).run())
    except Refused as refused:
        return COMMAND.refused(refused)
    except ApiError as error:
        where = f" ({connection.base_url})" if connection is not None else ""
        COMMAND.error(f"{str(error).rstrip('.')}{where}.")
        return FAILED


def _connection_without_key(profile: str | None) -> ResolvedConnection | None:
    """The profile's service, for its public key alone (no API key is needed for it)."""
    from console.profiles.config import ProfileError
    from console.profiles.resolve import resolve_connection

    try:
        return resolve_connection(profile)
    except ProfileError as error:
        COMMAND.error(str(error))
        return None


def _key_from_file(path: Path) -> RSAPublicKey:
    from console.webhooks.signing import load_public_key

    try:
        pem = path.read_bytes()
    except OSError as error:
        raise Refused(f"--signing-key {path}: {error.strerror or error}.", USAGE) from None
    try:
        return load_public_key(pem)
    except ValueError:
        raise Refused(
            f"--signing-key {path}: not a public key in PEM (-----BEGIN PUBLIC KEY-----).", USAGE
        ) from None


async def service_key(base_url: str) -> RSAPublicKey | None:
    """The local service's public key (it serves it at LOCAL_KEY_PATH, no API key asked), or
    None when the service has no such route: it is the hosted service (or another). Refused
    when the service cannot be asked."""
    import httpx

    from console.webhooks.signing import LOCAL_KEY_PATH, load_public_key

    url = base_url.rstrip("/") + LOCAL_KEY_PATH
    try:
        async with httpx.AsyncClient(timeout=KEY_TIMEOUT) as client:
            response = await client.get(url)
    except httpx.HTTPError as error:
        raise Refused(f"Could not ask {base_url} for its webhook key: {error}.") from None
    if response.status_code in (401, 403, 404, 405):
        return None
    if response.status_code != 200:
        raise Refused(
            f"{url} answered {response.status_code}; cannot tell which key to verify with."
        )
    try:
        return load_public_key(response.content)
    except ValueError:
        raise Refused(f"{url} did not answer a public key in PEM.") from None


async def _key_of_service(base_url: str) -> RSAPublicKey:
    """--service-url's key: the local service at `base_url` must serve one."""
    key = await service_key(base_url)
    if key is None:
        raise Refused(
            f"{base_url} serves no webhook key (it is not a local service): give the key "
            "with --signing-key FILE.",
            USAGE,
        )
    return key


async def hosted_key() -> RSAPublicKey:
    """The hosted service's public key, from where it publishes it."""
    import httpx

    from console.webhooks.signing import WEBHOOK_KEY_URL, load_public_key

    hint = " Give the key with --signing-key FILE."
    try:
        async with httpx.AsyncClient(timeout=KEY_TIMEOUT) as client:
            response = await client.get(WEBHOOK_KEY_URL)
        response.raise_for_status()
        return load_public_key(response.content)
    except httpx.HTTPError as error:
        raise Refused(
            f"Could not fetch the webhook key at {WEBHOOK_KEY_URL}: {error}.{hint}"
        ) from None
    except ValueError:
        raise Refused(f"{WEBHOOK_KEY_URL} did not answer a public key in PEM.{hint}") from None


def url_host(host: str) -> str:
    """How the listening address appears in a URL (`0.0.0.0` is reached as 127.0.0.1)."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


class Listening:
    """One run of the command: its key, receiver, webhook and forwarder, and their ending."""

    def __init__(
        self,
        options: ListenOptions,
        connection: ResolvedConnection | None,
        key: RSAPublicKey | None,
        *,
        routes: WebhookRoutes | None = None,
    ) -> None:
        self.options = options
        self.connection = connection
        self.key = key
        self.routes = routes
        self.stopping = asyncio.Event()
        self.reader_gone = False
        self.registered: Registered | None = None
        self.forwarder: Forwarder | None = None
        self._client: Any = None

    def stop(self) -> None:
        self.stopping.set()

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        handled: list[signal.Signals] = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, self.stop)
                handled.append(sig)
            except (NotImplementedError, RuntimeError):  # no signal handlers here (Windows)
                pass
        try:
            return await self._run()
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)

    async def _run(self) -> int:
        from console.webhooks.listen import Receiver, bind, serve_receiver
        from console.webhooks.listen_output import Printer

        options = self.options
        local_key: RSAPublicKey | None = None
        if self.connection is not None and (options.register or self.key is None):
            local_key = await service_key(self.connection.base_url)
            if local_key is None and options.register and options.public_url is None:
                raise Refused(HOSTED_CANNOT_REACH, USAGE)
        key = self.key or local_key or await hosted_key()
        try:
            sock = bind(options.host, options.port)
        except OSError as error:
            raise Refused(
                f"Cannot listen on {options.host}:{options.port}: {error.strerror or error}."
            ) from None
        host, port = sock.getsockname()[:2]
        here = f"http://{url_host(host)}:{port}"
        printer = Printer(
            json_format=options.json_format,
            events=options.events,
            out=sys.stdout,
            err=sys.stderr,
            forward=None,
        )
        printer.on_reader_gone = self._reader_gone
        receiver = Receiver(key, printer.delivery, printer.refusal)
        served = await serve_receiver(receiver, sock)
        try:
            if options.forward_to:
                self.forwarder = self._forwarder(printer)
                printer.forward = self.forwarder.submit
            if options.register:
                await self._register(printer, here)
            if not self.stopping.is_set():  # a signal during registration: straight to the end
                self._ready(printer, here)
                waiting = asyncio.create_task(self.stopping.wait())
                done, _ = await asyncio.wait(
                    {waiting, served.task}, return_when=asyncio.FIRST_COMPLETED
                )
                waiting.cancel()
                if served.task in done:
                    failure = served.task.exception()
                    raise Refused(f"The receiver stopped: {failure or 'no reason given'}.")
        finally:
            await self._end(printer, served)
        if self.reader_gone:
            raise BrokenPipeError  # console.cli.main ends quietly (console.closed_output)
        return OK

    def _reader_gone(self) -> None:
        self.reader_gone = True
        self.stop()

    def _forwarder(self, printer: Printer) -> Forwarder:
        from console.webhooks.listen_output import Forwarder

        if self.options.json_format:
            return Forwarder(self.options.forward_to or "", printer.note)
        return Forwarder(self.options.forward_to or "", printer.line)

    async def _register(self, printer: Printer, here: str) -> None:
        from console.cli_support import admin_client
        from console.webhooks.registration import ServiceRoutes, register

        options = self.options
        if self.routes is None:
            assert self.connection is not None
            self._client = admin_client(self.connection)
            self.routes = ServiceRoutes(self._client)
        url = options.public_url or here + "/"
        where = options.public_url or here.removeprefix("http://")
        self.registered = await register(self.routes, url=url, where=where, events=options.events)
        printer.note(f"Registered webhook {self.registered.id} for {url}")

    def _ready(self, printer: Printer, here: str) -> None:
        registered = self.registered
        events = registered.events if registered is not None else self.options.events
        what = f"on {here}"
        if events:
            what = f"for {len(events)} event type{'s' if len(events) != 1 else ''} {what}"
        if registered is None:
            what += " (no webhook registered)"
        elif self.options.public_url:
            what += f" (through {self.options.public_url})"
        forward = f", forwarding to {self.options.forward_to}" if self.options.forward_to else ""
        printer.note(f"Ready! Listening {what}{forward} — Ctrl+C to stop")

    async def _end(self, printer: Printer, served: Any) -> None:
        """Removes the webhook (first: no delivery goes to a port about to close), then stops
        the receiver and the forwarder. Runs however listen ends."""
        from console.webhooks.registration import unregister

        registered = self.registered
        if registered is not None and self.routes is not None:
            problem = await unregister(self.routes, registered.id)
            if problem is None:
                printer.note(f"Removed webhook {registered.id}.")
            else:
                printer.note(
                    f"Could not remove webhook {registered.id} ({problem}): delete it with "
                    f"tenant-console webhooks delete {registered.id}"
                )
        await served.stop()
        if self.forwarder is not None:
            await self.forwarder.close()
        if self._client is not None:
            await self._client.aclose()
        printer.note("Stopped.")
