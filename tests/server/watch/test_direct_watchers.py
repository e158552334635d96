"""A watcher on the play port is sent its updates by the feed's offer itself (``Watcher.attach``):
at once while its socket takes them, merged into one message (the latest row of each entry) while
it does not, and sent when it does again. The real-socket side is in test_leaderboard (every watch
test runs on both ports) and test_play_port."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from spidertour.server.watch.feeds import Tick, Watcher
from spidertour.server.watch.messages import Row, TeamTag

pytestmark = pytest.mark.asyncio


class Socket:
    """A connection's sending side as the watcher sees it: what it was sent, and whether it takes more."""

    def __init__(self) -> None:
        self.open = True
        self.sent: list[dict[str, Any]] = []
        self.callback: Any = None

    def can_send(self) -> bool:
        return self.open

    def send_now(self, data: bytes) -> None:
        assert self.open, "sent to a socket that takes nothing now"
        self.sent.append(json.loads(data))

    def when_writable(self, callback: Any) -> None:
        self.callback = callback


def row(entry_id: int, score: int) -> Row:
    return Row(entry_id=entry_id, player=f"p{entry_id}", score=score, status="playing")


def tick(changed: list[Row], top_score: int) -> Tick:
    return Tick(7, 2, {r.entry_id: r for r in changed}, [row(1, top_score)], None)


async def test_an_attached_watcher_is_sent_each_tick_at_once() -> None:
    watcher, socket = Watcher(frozenset({2})), Socket()
    watcher.offer(tick([row(2, 10)], 100))  # before the snapshot went: it waits
    assert socket.sent == []
    watcher.attach(socket, 7)
    assert [m["changed"][0]["score"] for m in socket.sent] == [10]  # what waited goes at attach
    watcher.offer(tick([row(2, 20)], 100))
    watcher.offer(tick([row(1, 30)], 130))  # only the top page changed for it
    assert [(m["changed"], m["top"][0]["score"]) for m in socket.sent[1:]] == [
        ([{**socket.sent[0]["changed"][0], "score": 20}], 100),
        ([], 130),
    ]
    assert not watcher.ready.is_set()  # nothing left waiting


async def test_while_its_socket_takes_nothing_ticks_merge_and_go_when_it_does() -> None:
    watcher, socket = Watcher(None), Socket()
    watcher.attach(socket, 7)
    socket.open = False
    watcher.offer(tick([row(2, 10), row(3, 5)], 100))
    watcher.offer(tick([row(2, 40)], 140))
    watcher.offer_teams(b'{"type":"teams","teams":[]}')
    assert socket.sent == []
    socket.open = True
    socket.callback()  # the socket takes more again
    update, teams = socket.sent
    assert {r["entry_id"]: r["score"] for r in update["changed"]} == {2: 40, 3: 5}  # the latest of each
    assert update["top"][0]["score"] == 140 and teams["type"] == "teams"
    watcher.detach()
    assert socket.callback is None
    watcher.offer(tick([row(2, 50)], 150))
    assert len(socket.sent) == 2  # detached: offered, not sent


async def test_a_watcher_s_own_rows_are_set_into_the_tick_s_encoding() -> None:
    """Rows of its own go into the update the tick encoded once: the same message as encoded whole."""
    tricky = Row(
        entry_id=3,
        player='"changed":[] ,',
        score=-5,
        status="ended",
        time_left=12,
        rank=9,
        team=TeamTag(id=4, name="]}"),
    )
    changed = {2: row(2, 10), 3: tricky, 5: row(5, 7)}
    t = Tick(7, 40, changed, [row(1, 100), Row(entry_id=8, player="[", score=1, status="playing")], "closing")
    for mine in ({}, {3: tricky}, {2: changed[2], 3: tricky}, changed):  # the tick's own: every row
        rows = list(mine.values())
        whole = msgspec.json.encode(t.update(rows))
        assert json.loads(t.encoded_for(mine)) == json.loads(whole)
        assert t.encoded_for(mine) == whole  # byte for byte
    for watcher in (Watcher(frozenset({3, 9})), Watcher(frozenset({9}))):  # attached, or waiting to be taken
        socket = Socket()
        watcher.attach(socket, 7)
        waiting = Watcher(frozenset({3}))
        watcher.offer(t)
        waiting.offer(t)
        follows_3 = watcher.follow is not None and 3 in watcher.follow
        assert [r["entry_id"] for r in socket.sent[0]["changed"]] == ([3] if follows_3 else [])
        assert json.loads(waiting.take(7)) == json.loads(msgspec.json.encode(t.update([tricky])))


class Unwalkable(dict[int, Row]):
    """A tick's changes that fail the test if anything walks through them all."""

    def __iter__(self) -> Any:
        raise AssertionError("walked through every change of the tick")


async def test_offering_a_tick_looks_up_a_watcher_s_entries_and_never_walks_every_change() -> None:
    """A thousand watchers of a big tournament each follow a few entries: a tick's offer costs each of
    them a look-up of those few, not a pass over the tick's thousand changes (that pass cost a
    watcher 14 us a tick at 1,250 changes: bench/scale/feed_bench.py)."""
    changed = Unwalkable({eid: row(eid, eid) for eid in range(2, 1252)})
    t = Tick(7, 2000, changed, [row(1, 5000)], None)
    t.top_same = True
    followed, unchanged, socket = Watcher(frozenset({5, 1251})), Watcher(frozenset({9000})), Socket()
    followed.attach(socket, 7)
    unchanged.attach(socket, 7)
    followed.offer(t)
    unchanged.offer(t)  # nothing it sees changed: nothing sent
    assert [sorted(r["entry_id"] for r in m["changed"]) for m in socket.sent] == [[5, 1251]]
