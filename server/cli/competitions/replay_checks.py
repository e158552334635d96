"""What ``spidertour verify`` checks of a published game and of revealed settings, with no I/O: the
commitment recomputed, a replay line re-scored by the engine alone (server/cli/verify.py for a
tournament, match_verify.py for a match)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from spidertour.engine import EngineError, Settings
from spidertour.engine.replay import replay_game

from ...competitions.deal_checks import deal_count

TIME_UP_STATUSES = ("timed_out", "absent")


class VerifyError(Exception):
    """Verification could not even start: bad input, not the tournament's fault."""


# Settings added after the first tournaments were committed: a tournament made before them (one
# with no salt) may leave them out, and then plays them at their defaults.
LATER_SETTINGS = ("reveals_final", "deal_variation")


def commitment_of(seed: str, settings: dict[str, Any], salt: str | None = None) -> str:
    """SHA-256 (hex) of ``{"salt": ..., "seed": ..., "settings": ...}`` as canonical JSON: keys
    sorted, no spaces, UTF-8. With no salt (tournaments created before salts), of
    ``{"seed": ..., "settings": ...}``."""
    committed: dict[str, Any] = {"seed": seed, "settings": settings}
    if salt is not None:
        committed["salt"] = salt
    text = json.dumps(committed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class GameCheck:
    """One published game, re-scored."""

    line: int  # 1-based line of the replays
    entry_id: int | None
    player: str
    status: str
    moves: int
    published: int | None
    recomputed: int | None
    time_left: int | None  # recomputed: whole seconds left when the game ended
    entry: int | None = None  # the entry's ordinal (1, 2, ...): which renamed deal it played
    rank: int | None = None
    standing: int | None = None  # the score the standings give this entry
    disqualified: str | None = None  # the organiser's reason: the entry is left out of the ranking
    problems: list[str] = field(default_factory=list)
    deal: int | None = None  # several deals: which one (1, 2, ...)
    scores: dict[int, int] = field(default_factory=dict)  # several deals, an entry's total: deal -> score

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class Report:
    tournament: dict[str, Any]
    checks: list[Check]
    games: list[GameCheck]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks) and all(g.ok for g in self.games)

    @property
    def problems(self) -> list[str]:
        out = [f"{c.name}: {c.detail}" for c in self.checks if not c.ok]
        for g in self.games:
            who = f"entry {g.entry_id}" if g.entry_id is not None else f"replay line {g.line}"
            who += "" if g.deal is None else f" deal {g.deal}"
            out += [f"{who}: {p}" for p in g.problems]
        return out


def unreadable(number: int, problem: str) -> GameCheck:
    return GameCheck(
        line=number,
        entry_id=None,
        player="?",
        status="?",
        moves=0,
        published=None,
        recomputed=None,
        time_left=None,
        problems=[problem],
    )


def settings_check(settings: Any, salted: bool) -> Check:
    try:
        filled = Settings.from_json(settings).to_json()
    except EngineError as err:
        return Check("settings", False, f"the engine refuses them: {err.reason}")
    left_out = set(filled) - set(settings)
    if not salted:  # committed before the later settings existed: they play at their defaults
        left_out -= set(LATER_SETTINGS)
    if left_out or any(filled[k] != v for k, v in settings.items() if k in filled):
        return Check("settings", False, f"not every setting is given (the engine reads {filled})")
    return Check(
        "settings",
        True,
        f"{settings['variant']}, {settings['suits']} suit(s), {settings['time_limit']} s; all {len(settings)} given",
    )


def game_check(number: int, text: str, seed: str, settings: dict[str, Any]) -> GameCheck:
    try:
        line = json.loads(text)
    except ValueError:
        return unreadable(number, "not valid JSON")
    except RecursionError:
        return unreadable(number, "not valid JSON (nested too deeply)")
    if not isinstance(line, dict):
        return unreadable(number, "not a JSON object")
    moves = line.get("moves", [])
    game = GameCheck(
        line=number,
        entry_id=line.get("entry_id") if type(line.get("entry_id")) is int else None,
        entry=line.get("entry") if type(line.get("entry")) is int else None,
        player=str(line.get("player", "?")),
        status=str(line.get("status", "?")),
        moves=len(moves) if isinstance(moves, list) else 0,
        published=line.get("final_score") if type(line.get("final_score")) is int else None,
        recomputed=None,
        time_left=None,
        disqualified=str(line["disqualified"]) if line.get("disqualified") is not None else None,
        deal=line.get("deal") if type(line.get("deal")) is int else None,
    )
    if game.entry_id is None:
        game.problems.append("no entry_id")
    if line.get("seed") != seed:
        game.problems.append("its seed is not the revealed seed")
    differ = sorted(k for k in settings if line.get(k) != settings[k])
    if differ:
        game.problems.append(f"its settings differ from the tournament's: {', '.join(differ)}")
    # The deal comes from the revealed seed and the committed settings, whatever the line says;
    # with deal_variation, renamed for the entry's ordinal (which must be a whole number from 1).
    spec: dict[str, Any] = {**settings, "seed": seed, "moves": moves}
    if settings.get("deal_variation"):
        if game.entry is None or game.entry < 1:
            game.problems.append("deal_variation is on but the line names no entry ordinal ('entry')")
            return game
        spec["entry"] = game.entry
    if deal_count(settings) > 1:  # deal k of several: dealt from "<seed>/<k>"
        if game.deal is None or not 1 <= game.deal <= deal_count(settings):
            game.problems.append(f"the line names no deal from 1 to {deal_count(settings)} ('deal')")
            return game
        spec["deal"] = game.deal
    try:
        out = replay_game(spec)
    except EngineError as err:
        game.problems.append(f"the engine cannot replay it: {err.reason}")
        return game
    final = out["steps"][-1] if out["steps"] else out["initial"]
    game.recomputed = out["final_score"]
    game.time_left = final.get("time_left")
    if game.recomputed is None:
        game.problems.append("its moves do not end the game")
        return game
    if game.published != game.recomputed:
        game.problems.append(f"published final score {game.published}, the replay gives {game.recomputed}")
    outcome = final.get("outcome")
    expected = "timed_out" if game.status in TIME_UP_STATUSES else game.status
    if outcome != expected:
        game.problems.append(f"published as {game.status}, the replay ends it as {outcome}")
    return game


def fetch_published(
    client: Any, get: Any, what: str, number: int, listed: str, done: tuple[str, ...], when: str
) -> tuple[dict[str, Any], str]:
    """A finished match's or bracket's document (``/api/{what}es|s/{number}``, checked to hold the
    list ``listed`` and a status of ``done``) and its replays; ``get`` is verify.py's GET (None for
    a 404). ``when`` says in the refusal when it can be verified ("over", "finished")."""
    path = f"/api/{'matches' if what == 'match' else what + 's'}/{number}"
    found = get(client, path)
    if found is None:
        raise VerifyError(f"no {what} {number} on {client.base_url}")
    try:
        doc = found.json()
    except ValueError:
        raise VerifyError(f"{client.base_url} did not answer with JSON: is it a spidertour server?") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(listed), list):
        raise VerifyError(f"{client.base_url} did not answer with a {what}: is it a spidertour server?")
    if doc.get("status") not in done:
        raise VerifyError(f"{what} {number} is {doc.get('status')}: it can be verified once it is {when}")
    published = get(client, f"{path}/replays")
    if published is None:
        raise VerifyError(f"{client.base_url} publishes no replays for {what} {number}")
    return doc, published.text
