"""The same-stack echo: a Litestar + uvicorn websocket echo app, and picows clients that send to it as
fast as answers come, or at a set rate in all (round robin over the connections, as the load
generator offers moves). What a message costs this stack with no work behind it."""

from __future__ import annotations

import asyncio
import time
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect
from wire import ms, percentile

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------------------- the echo app


def echo_app() -> Any:
    from litestar import Litestar, WebSocket, websocket

    @websocket("/ws/echo")
    async def echo(socket: WebSocket[Any, Any, Any]) -> None:
        await socket.accept()
        while True:
            event = await socket.receive()
            if event["type"] == "websocket.disconnect":
                return
            text, raw = event.get("text"), event.get("bytes")
            data = text if isinstance(text, str) else raw.decode() if isinstance(raw, bytes) else ""
            await socket.send_data(data, mode="text")

    return Litestar(route_handlers=[echo])


def serve_echo(port: int) -> None:
    import uvicorn

    uvicorn.run(
        echo_app(),
        host="127.0.0.1",
        port=port,
        ws_max_size=1 << 20,
        log_level="warning",
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )


class _EchoServer(WSListener):
    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type is WSMsgType.TEXT:
            transport.send(WSMsgType.TEXT, frame.get_payload_as_bytes())


def serve_picows_echo(port: int) -> None:
    """The same echo on picows (as the server's play port), on uvloop like uvicorn's."""
    import uvloop
    from picows import ws_create_server

    async def run() -> None:
        server = await ws_create_server(lambda _: _EchoServer(), "127.0.0.1", port, max_frame_size=1 << 20)
        await server.serve_forever()

    uvloop.run(run())


# ---------------------------------------------------------------------------------------- echo


class EchoClient(WSListener):
    MESSAGE = b'{"type":"move","seq":1,"from":0,"count":1,"to":8}'

    def __init__(self, loop: asyncio.AbstractEventLoop, counter: list[int]) -> None:
        super().__init__()
        self.loop = loop
        self.counter = counter
        self.running = False
        self.transport: WSTransport | None = None
        self.latency = array("d")
        self.sent = 0.0
        self.waiting = False  # paced: a message sent and not yet answered

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def go(self) -> None:
        assert self.transport is not None
        self.sent = self.loop.time()
        self.transport.send(WSMsgType.TEXT, self.MESSAGE)

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type is not WSMsgType.TEXT:
            return
        frame.get_payload_as_bytes()
        self.counter[0] += 1
        if self.waiting:  # paced: the answer to this one's turn
            self.waiting = False
            self.latency.append(self.loop.time() - self.sent)
        elif self.running:
            now = self.loop.time()
            self.latency.append(now - self.sent)
            self.sent = now
            transport.send(WSMsgType.TEXT, self.MESSAGE)


async def _paced(
    loop: asyncio.AbstractEventLoop, clients: list[EchoClient], rate: float, t0: float, seconds: float
) -> None:
    n, k = len(clients), 0
    while (now := loop.time()) < t0 + seconds:
        due = int((now - t0) * rate)
        while k < due:
            c = clients[k % n]
            k += 1
            if not c.waiting:
                c.waiting = True
                c.go()
        await asyncio.sleep(0.002)
    await asyncio.sleep(0.2)  # the last answers


async def echo_run(
    url: str, connections: int, seconds: float, server_cpu: Callable[[], float], rate: float | None = None
) -> dict[str, Any]:
    """Echo for ``seconds``: every connection as fast as its answers come, or (``rate``) that many
    messages a second in all, one connection at a time, round robin, sent every 2 ms as the load
    generator's moves are (a connection still waiting for its answer skips its turn).
    ``server_cpu``: the echo server's CPU seconds so far, read when the messages start and end
    (the connections' handshakes are not counted)."""
    loop = asyncio.get_running_loop()
    counter = [0]
    clients = [EchoClient(loop, counter) for _ in range(connections)]
    sem = asyncio.Semaphore(64)
    transports = []

    async def one(c: EchoClient) -> None:
        async with sem:
            transport, _ = await ws_connect(lambda: c, url, read_buffer_init_size=4096)
            transports.append(transport)

    await asyncio.gather(*(one(c) for c in clients))
    cpu0, server0 = time.process_time(), server_cpu()
    t0 = loop.time()
    n0 = counter[0]
    if rate is None:
        for c in clients:
            c.running = True
            c.go()
        await asyncio.sleep(seconds)
    else:
        await _paced(loop, clients, rate, t0, seconds)
    n = counter[0] - n0
    elapsed = loop.time() - t0
    cpu, used = time.process_time() - cpu0, server_cpu() - server0
    for c in clients:
        c.running = False
    await asyncio.sleep(0.5)
    for t in transports:
        t.disconnect()
    latency = array("d")
    for c in clients:
        latency.extend(c.latency)
    return {
        "connections": connections,
        **({} if rate is None else {"offered_per_second": rate}),
        "messages_per_second": round(n / elapsed, 1),
        "p50_ms": ms(percentile(latency, 50)),
        "p99_ms": ms(percentile(latency, 99)),
        "server_cpu_percent": round(100 * used / elapsed, 1),
        "server_us_per_message": round(1e6 * used / max(n, 1), 1),
        "loadgen_cpu_percent": round(100 * cpu / elapsed, 1),
        "seconds": round(elapsed, 2),
    }
