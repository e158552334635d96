"""Where the event loop was when it stalled: an operator's instrument, off unless ``STALL_LOG_MS`` is set.

A thread of its own asks the loop for a small callback every ``PERIOD`` seconds. While the last one
has waited longer than the limit, the thread samples the loop thread's stack; when the loop answers
again, one WARNING line says how long the stall lasted and where the loop was most of that time.
Found this way at full size: the garbage collector (which holds the interpreter, so its pauses show
as a stall but are timed by ``spidertour_gc_pause_seconds``) and the board's rebuild.

Its cost while on: 200 small callbacks a second on the loop, and the thread's turns at the
interpreter's lock. Nothing when off.
"""

from __future__ import annotations

import asyncio
import asyncio.runners as runners
import logging
import sys
import threading
import time
from collections import Counter

from . import collector
from .collector import time_pause

log = logging.getLogger("spidertour.stalls")

PERIOD = 0.005  # seconds between two asks of the loop
FRAMES = 8  # the innermost frames of a stack that the line shows


def where(thread_id: int) -> str:
    """The innermost frames of a thread's stack, outermost first: ``file:line function > ...``, and
    what the innermost says: a garbage collection just ended, or no Python code was running. Read
    from the frames alone (no source lines looked up): the sample is taken while the loop waits."""
    frame = sys._current_frames().get(thread_id)
    frames: list[tuple[str, int, str]] = []
    while frame is not None and len(frames) < FRAMES:
        frames.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back
    if not frames:
        return "(no stack)"
    frames.reverse()
    text = " > ".join(f"{file.rsplit('/', 1)[-1]}:{line} {name}" for file, line, name in frames)
    file, _, name = frames[-1]
    if name == time_pause.__name__ and file == collector.__file__:
        return text + " (a garbage collection: spidertour_gc_pause_seconds)"
    if name == "run" and file == runners.__file__:
        return text + " (no Python code running: the event loop's own work, or the process waiting for a core)"
    return text


class StallLog:
    """Logs each stall of the running loop longer than ``limit`` seconds, with where it was."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.beat = 0.0  # when the loop last ran the thread's callback (time.monotonic)
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        """Start watching the running loop (called on it)."""
        if self.thread is not None:
            return
        loop = asyncio.get_running_loop()
        self.beat = time.monotonic()
        self.stopping.clear()
        self.thread = threading.Thread(
            target=self._watch, args=(loop, threading.get_ident()), name="stall-log", daemon=True
        )
        self.thread.start()

    def stop(self) -> None:
        thread, self.thread = self.thread, None
        if thread is not None:
            self.stopping.set()
            thread.join(timeout=1.0)

    def _beat(self) -> None:
        self.beat = time.monotonic()

    def _watch(self, loop: asyncio.AbstractEventLoop, thread_id: int) -> None:
        seen: Counter[str] = Counter()
        began: float | None = None  # when the stall being sampled began
        while not self.stopping.wait(PERIOD):
            try:
                loop.call_soon_threadsafe(self._beat)
            except RuntimeError:  # the loop has closed
                return
            beat = self.beat
            if time.monotonic() - beat > self.limit:
                began = beat if began is None else began
                seen[where(thread_id)] += 1
            elif began is not None:
                self._report(beat - began, seen)
                seen.clear()
                began = None

    def _report(self, lasted: float, seen: Counter[str]) -> None:
        stack, count = seen.most_common(1)[0]
        total = sum(seen.values())
        log.warning(
            "the event loop stalled for %.0f ms; where it was (%d of %d samples): %s",
            lasted * 1000,
            count,
            total,
            stack,
        )
