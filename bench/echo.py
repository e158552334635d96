"""The same-stack echo: a Litestar + uvicorn websocket echo app, and picows clients that send to it as
fast as answers come. What a message costs this stack with no work behind it."""

from __future__ import annotations

import asyncio
import time
from array import array
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
        if self.running:
            now = self.loop.time()
            self.latency.append(now - self.sent)
            self.sent = now
            transport.send(WSMsgType.TEXT, self.MESSAGE)


async def echo_run(url: str, connections: int, seconds: float) -> dict[str, Any]:
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
    cpu0 = time.process_time()
    for c in clients:
        c.running = True
        c.go()
    t0 = loop.time()
    await asyncio.sleep(seconds)
    n = counter[0]
    elapsed = loop.time() - t0
    cpu = time.process_time() - cpu0
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
        "messages_per_second": round(n / elapsed, 1),
        "p50_ms": ms(percentile(latency, 50)),
        "p99_ms": ms(percentile(latency, 99)),
        "loadgen_cpu_percent": round(100 * cpu / elapsed, 1),
        "seconds": round(elapsed, 2),
    }
