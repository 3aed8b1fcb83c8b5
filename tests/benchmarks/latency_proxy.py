"""A loopback TCP proxy that adds a round trip: the hosted service's distance, on loopback.

`python -m tests.benchmarks.latency_proxy UPSTREAM_PORT RTT_MS` listens on a free loopback
port (printed as one line, then it serves until killed) and forwards every connection to
127.0.0.1:UPSTREAM_PORT, each chunk delivered RTT/2 after it arrived, in each direction, in
order: a request and its answer take one extra round trip, however many are in flight on
other connections (a real network delays; it does not queue). A connection's set-up takes
its round trip too (the SYN/ACK of a real one), once.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """Forwards what `reader` gets to `writer`, each chunk `delay` after it arrived."""
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            due, data = await queue.get()
            if not data:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        writer.close()

    delivering = asyncio.ensure_future(deliver())
    try:
        while True:
            data = await reader.read(65536)
            queue.put_nowait((time.monotonic() + delay, data))
            if not data:
                break
        await delivering
    except (ConnectionError, OSError):
        delivering.cancel()
        writer.close()


async def serve(upstream_port: int, rtt: float) -> None:
    half = rtt / 2

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(rtt)  # the connection's own round trip
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            _pipe(reader, up_writer, half), _pipe(up_reader, writer, half), return_exceptions=True
        )

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


@contextmanager
def latency_proxy(upstream_url: str, rtt_ms: float) -> Iterator[str]:
    """A proxy subprocess in front of `upstream_url` (http://127.0.0.1:PORT); its base URL."""
    port = int(upstream_url.rsplit(":", 1)[1].split("/")[0])
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.benchmarks.latency_proxy", str(port), str(rtt_ms)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        if not line:
            raise RuntimeError("the latency proxy did not start")
        yield f"http://127.0.0.1:{int(line)}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def main() -> None:
    asyncio.run(serve(int(sys.argv[1]), float(sys.argv[2]) / 1000))


if __name__ == "__main__":
    main()
