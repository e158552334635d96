"""Every error code the server can send is in docs/protocol.md's table, and the doc's rules hold."""

from __future__ import annotations

import re

from tests import paths
from tests.client import Api
from tests.server.helpers import new_player, reveal_move

SENT = [
    re.compile(r'\berror\(\s*"([a-z_]+)"'),  # PlaySession.error("code", ...)
    re.compile(r'\bError\(\s*code="([a-z_]+)"'),  # p.Error(code="...") on the watch socket
    re.compile(r'Error\(\s*f?"[^"]*",\s*"([a-z_]+)"'),  # the engine: SomeError("reason", "code")
    re.compile(r'^\s+code = "([a-z_]+)"', re.M),  # the engine's error classes
]


def sent_codes() -> set[str]:
    codes: set[str] = set()
    for folder in ("server", "engine"):
        for path in (paths.ROOT / folder).rglob("*.py"):
            text = path.read_text()
            for pattern in SENT:
                codes.update(pattern.findall(text))
    return codes


def documented_codes() -> set[str]:
    doc = (paths.DOCS / "protocol.md").read_text()
    section = doc[doc.index("## Error codes") :]
    section = section[: section.index("\n## ", 5)]
    return set(re.findall(r"`([a-z_]+)`", section))


def test_every_code_the_server_sends_is_documented() -> None:
    codes = sent_codes()
    assert {"seq_reused", "stopped", "stale_seq", "face_down", "not_found", "game_over"} <= codes  # the scan works
    missing = sorted(codes - documented_codes())
    assert missing == [], f"error codes missing from docs/protocol.md: {missing}"


async def test_a_resent_last_seq_with_another_move_is_refused(api: Api, server: object) -> None:
    seed = "codes-seed"
    tid = api.create_tournament(name="codes", seed=seed, variant="spider78", suits=2)["id"]
    player, _ = await new_player(api, server.ws_url, tid, "resender")  # type: ignore[attr-defined]
    first = await player.play(reveal_move(seed), seq=5)
    assert first["type"] == "result" and first["n"] == 1
    same = await player.play(reveal_move(seed), seq=5)
    assert same["type"] == "result" and same["repeated"] is True and same["n"] == 1
    other = await player.play({"type": "deal", "pile": 0}, seq=5)
    assert other["type"] == "error" and other["code"] == "seq_reused" and other["seq"] == 5
    state = await player.request({"type": "sync"})
    assert state["moves"] == 1 and state["last_seq"] == 5
    await player.close()


async def test_a_seq_past_what_javascript_holds_is_refused_at_once(api: Api, server: object) -> None:
    seed = "codes-seed-2"
    tid = api.create_tournament(name="codes-big", seed=seed, variant="spider78", suits=2)["id"]
    player, _ = await new_player(api, server.ws_url, tid, "bigseq")  # type: ignore[attr-defined]
    for seq in (2**53, 2**53 + 1, 2**63, 2**64):
        refused = await player.play(reveal_move(seed), seq=seq)
        assert refused["type"] == "error" and refused["code"] == "bad_message", refused
        state = await player.request({"type": "sync"})
        assert state["moves"] == 0 and state["last_seq"] == 0
    top = await player.play(reveal_move(seed), seq=2**53 - 1)
    assert top["type"] == "result" and top["seq"] == 2**53 - 1
    state = await player.request({"type": "sync"})
    assert state["moves"] == 1 and state["last_seq"] == 2**53 - 1
    await player.close()
