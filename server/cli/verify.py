"""``spidertour verify``: check a finished tournament without trusting the server.

It fetches the tournament, its replays and its standings over the public HTTP API, then:

1. recomputes the SHA-256 commitment from the revealed salt, seed and settings (the canonical form
   of docs/protocol.md, computed here, not by the server's code; tournaments created before salts
   have none and were committed to the seed and settings alone) and compares it with the
   commitment published when the tournament was created;
2. rebuilds every game from the seed and its move list with the engine alone
   (``engine.replay.replay_game``, docs/replay.md), each entry's renamed deal when the tournament
   plays with ``deal_variation``;
3. compares each recomputed final score with the published one and with the standings, and checks
   that the standings hold every entry once, in the ranking order of docs/rules.md.

``verify(...)`` returns a :class:`Report`; the command prints it and exits 0 when everything
agrees, 1 when something does not, 2 when it cannot verify at all (unknown tournament, not
finished yet, server unreachable, unreadable file).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from spidertour.engine import EngineError, Settings
from spidertour.engine.replay import replay_game

from ..competitions.deal_checks import by_entry, deal_count, matchpoint_checks
from ..config import ConfigError
from .args import an_id
from .client import server_url

PAGE = 500  # standings rows per request (the server's largest page)
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


# ----------------------------------------------------------------------------- fetching


def _get(client: Any, path: str, **params: Any) -> Any:
    """GET, with a clear VerifyError for a network failure or any answer but 200 (404: None)."""
    import httpx

    try:
        r = client.get(path, params=params or None)
    except (httpx.HTTPError, httpx.InvalidURL) as err:
        raise VerifyError(f"cannot reach {client.base_url}: {err or type(err).__name__}") from None
    if r.status_code == 404:
        return None
    if r.status_code != 200:
        try:
            detail = r.json().get("detail", r.text)
        except (ValueError, AttributeError):
            detail = r.text[:200]
        raise VerifyError(f"{path}: the server answered {r.status_code}: {detail}")
    return r


def fetch(base_url: str, tournament_id: int, client: Any = None) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """The finished tournament, its replays (JSON Lines text) and all its standings."""
    import httpx

    if client is None and not base_url.startswith(("http://", "https://")):
        raise VerifyError(f"not a server address: {base_url!r} (give http://host:port)")
    own = client is None
    if own:
        try:
            client = httpx.Client(base_url=base_url, timeout=15)
        except (httpx.InvalidURL, ValueError) as err:
            raise VerifyError(f"not a server address: {base_url!r} ({err})") from None
    try:
        found = _get(client, f"/api/tournaments/{tournament_id}")
        if found is None:
            raise VerifyError(f"no tournament {tournament_id} on {base_url}")
        try:
            tour = found.json()
        except ValueError:
            raise VerifyError(f"{base_url} did not answer with JSON: is it a spidertour server?") from None
        if not isinstance(tour, dict) or "status" not in tour:
            raise VerifyError(f"{base_url} did not answer with a tournament: is it a spidertour server?")
        if tour["status"] == "cancelled":
            raise VerifyError(f"tournament {tournament_id} was cancelled: nobody is ranked, there is nothing to verify")
        if tour["status"] != "finished":
            raise VerifyError(f"tournament {tournament_id} is {tour['status']}: it can be verified once it is finished")
        published = _get(client, f"/api/tournaments/{tournament_id}/replays")
        if published is None:
            raise VerifyError(f"{base_url} publishes no replays for tournament {tournament_id}")
        replays = published.text
        standings: list[dict[str, Any]] = []
        while True:
            page = _get(client, f"/api/tournaments/{tournament_id}/standings", offset=len(standings), limit=PAGE)
            if page is None:
                raise VerifyError(f"{base_url} publishes no standings for tournament {tournament_id}")
            try:
                rows = page.json()
            except ValueError:
                raise VerifyError("the standings are not JSON") from None
            standings += rows
            if len(rows) < PAGE:
                break
        return tour, replays, standings
    finally:
        if own:
            client.close()


# ----------------------------------------------------------------------------- checking


def _unreadable(number: int, problem: str) -> GameCheck:
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


def _settings_check(settings: Any, salted: bool) -> Check:
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


def _game(number: int, text: str, seed: str, settings: dict[str, Any]) -> GameCheck:
    try:
        line = json.loads(text)
    except ValueError:
        return _unreadable(number, "not valid JSON")
    except RecursionError:
        return _unreadable(number, "not valid JSON (nested too deeply)")
    if not isinstance(line, dict):
        return _unreadable(number, "not a JSON object")
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


def _standings_checks(games: list[GameCheck], standings: list[dict[str, Any]], ranking: bool = True) -> list[Check]:
    by_entry: dict[int, GameCheck] = {g.entry_id: g for g in games if g.entry_id is not None and g.disqualified is None}
    out: set[int | None] = {g.entry_id for g in games if g.disqualified is not None}
    checks = []
    ranks = [s.get("rank") for s in standings]
    seen: list[int | None] = [s.get("entry_id") for s in standings]
    missing = sorted(set(by_entry) - set(seen))
    extra = sorted(e for e in set(seen) - set(by_entry) - out if e is not None)
    ranked_out = sorted(e for e in set(seen) & out if e is not None)
    twice = sorted({e for e in seen if e is not None and seen.count(e) > 1})
    problems = []
    if ranks != list(range(1, len(standings) + 1)):
        problems.append("ranks are not 1, 2, 3 ...")
    if missing:
        problems.append(f"entries missing: {missing}")
    if extra:
        problems.append(f"entries with no replay: {extra}")
    if twice:
        problems.append(f"entries listed twice: {twice}")
    if ranked_out:
        problems.append(f"disqualified entries ranked: {ranked_out}")
    checks.append(Check("standings", not problems, "; ".join(problems) or f"{len(standings)} entries, each once"))
    ordinals = [g.entry for g in games if g.entry is not None]
    if ordinals:
        repeated = sorted({o for o in ordinals if ordinals.count(o) > 1})
        checks.append(
            Check(
                "entries",
                not repeated,
                f"ordinals used twice: {repeated}" if repeated else f"{len(ordinals)} ordinal(s), each once",
            )
        )

    for s in standings:
        entry_id = s.get("entry_id")
        g = by_entry.get(entry_id) if isinstance(entry_id, int) else None
        if g is None:
            continue
        g.rank, g.standing = s.get("rank"), s.get("score")
        if g.recomputed is not None and s.get("score") != g.recomputed:
            g.problems.append(f"the standings give {s.get('score')}, the replay gives {g.recomputed}")
        if g.time_left is not None and s.get("time_left") != g.time_left:
            g.problems.append(f"the standings give {s.get('time_left')} s left, the replay gives {g.time_left}")

    # docs/rules.md: higher final score, then more time remaining, then the earlier entry (lower id).
    listed = [by_entry[s["entry_id"]] for s in standings if s.get("entry_id") in by_entry]
    if ranking and all(g.recomputed is not None for g in listed):
        order = sorted(listed, key=lambda g: (-(g.recomputed or 0), -(g.time_left or 0), g.entry_id or 0))
        wrong = [g.entry_id for g, o in zip(listed, order, strict=True) if g is not o]
        checks.append(
            Check(
                "ranking",
                not wrong,
                f"out of order from entry {wrong[0]} on" if wrong else "score, then time left, then the earlier entry",
            )
        )
    return checks


def verify_data(tour: dict[str, Any], replays: str, standings: list[dict[str, Any]]) -> Report:
    """Check what a server published about a finished tournament (no I/O)."""
    checks: list[Check] = []
    seed, settings = tour.get("seed"), tour.get("settings")
    if not isinstance(seed, str) or not isinstance(settings, dict):
        checks.append(Check("seed", False, "the finished tournament shows no seed or no settings"))
        return Report(tour, checks, [])
    salt = tour.get("salt")
    if salt is not None and not isinstance(salt, str):
        checks.append(Check("salt", False, "the salt is not a string"))
        return Report(tour, checks, [])
    checks.append(Check("seed", True, f"revealed: {seed!r}"))
    checks.append(
        Check(
            "salt",
            True,
            f"revealed: {salt!r}"
            if salt is not None
            else "none: created before salts, committed to the seed and settings alone",
        )
    )
    checks.append(_settings_check(settings, salt is not None))
    expected = commitment_of(seed, settings, salt)
    published = tour.get("commitment")
    checks.append(
        Check(
            "commitment",
            expected == published,
            f"sha256 {expected}" if expected == published else f"published {published}, recomputed {expected}",
        )
    )
    games = [_game(n, text, seed, settings) for n, text in enumerate(replays.splitlines(), 1) if text.strip()]
    # Every game is published: ``entrants`` counts the ranked entries, ``disqualified`` the others.
    entrants = tour.get("entrants")
    if isinstance(entrants, int):
        entrants += int(tour.get("disqualified") or 0)
    if deal_count(settings) > 1:
        checks += _several_deals(games, standings, settings, entrants)
        return Report(tour, checks, games)
    counted = sum(1 for g in games if g.entry_id is not None)
    checks.append(
        Check(
            "replays",
            entrants is None or entrants == counted,
            f"{counted} game(s)" + ("" if entrants in (None, counted) else f" for {entrants} entrants"),
        )
    )
    checks += _standings_checks(games, standings)
    return Report(tour, checks, games)


def _several_deals(
    games: list[GameCheck], standings: list[dict[str, Any]], settings: dict[str, Any], entrants: Any
) -> list[Check]:
    """Several deals: every entry's games add up to its standing (competitions/deal_checks.py)."""
    deals = deal_count(settings)
    totals, missing = by_entry(games, deals, entrants)
    checks = [Check("deals", not missing, "; ".join(missing) or f"{len(totals)} entries x {deals} deals, each once")]
    by_matchpoints = settings.get("scoring") == "matchpoints"
    checks += _standings_checks(totals, standings, ranking=not by_matchpoints)
    if by_matchpoints:
        ranked = [g for g in totals if g.disqualified is None]
        checks += matchpoint_checks(ranked, standings, deals, Check)
    for total in totals:  # what the standings check found, told on the entry's games
        own = [g for g in games if g.entry_id == total.entry_id]
        for g in own:
            g.rank, g.standing = total.rank, total.standing
        own[-1].problems += [f"(its total) {p}" for p in total.problems]
    return checks


def verify(base_url: str, tournament_id: int, replays: str | None = None, client: Any = None) -> Report:
    """Fetch and check a finished tournament. ``replays``: check these lines instead of the server's."""
    tour, published, standings = fetch(base_url, tournament_id, client)
    return verify_data(tour, published if replays is None else replays, standings)


# ----------------------------------------------------------------------------- the command


def render(report: Report, file: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=file or sys.stdout, width=110, highlight=False)
    t = report.tournament
    console.print(f"Tournament {t.get('id')} {t.get('name')!r}: {t.get('status')}, finished at {t.get('finished_at')}")
    for c in report.checks:
        console.print(f"  {'ok  ' if c.ok else 'FAIL'} {c.name}: {c.detail}", markup=False)
    table = Table(title=None)
    for name, justify in (
        ("rank", "right"),
        ("entry", "right"),
        ("player", "left"),
        ("status", "left"),
        ("moves", "right"),
        ("published", "right"),
        ("standings", "right"),
        ("replayed", "right"),
        ("", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for g in sorted(report.games, key=lambda g: (g.rank is None, g.rank or 0, g.line)):
        table.add_row(
            *(
                ("-" if v is None else str(v))
                for v in (
                    g.rank,
                    g.entry_id,
                    g.player,
                    g.status if g.disqualified is None else f"disqualified: {g.disqualified}",
                    g.moves,
                    g.published,
                    g.standing,
                    g.recomputed,
                )
            ),
            "ok" if g.ok else "MISMATCH",
        )
    console.print(table)
    if report.ok:
        console.print(f"OK: the seed matches the commitment and all {len(report.games)} game(s) re-score as published.")
    else:
        console.print(f"FAILED: {len(report.problems)} problem(s)")
        for problem in report.problems:
            console.print(f"  - {problem}", markup=False)


def run_verify(args: argparse.Namespace) -> int:
    try:
        url = (args.server or server_url()).rstrip("/")
        replays = None
        if args.replays is not None:
            try:
                if args.replays == "-":
                    replays = sys.stdin.read()
                else:
                    with open(args.replays, encoding="utf-8", errors="replace") as f:
                        replays = f.read()
            except OSError as err:
                raise VerifyError(f"cannot read {args.replays}: {err.strerror}") from None
        report = verify(url, args.tournament_id, replays)
    except (VerifyError, ConfigError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    render(report)
    return 0 if report.ok else 1


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``verify`` on the ``spidertour`` command's subcommands."""
    cmd = sub.add_parser(
        "verify",
        help="check a finished tournament: seed against commitment, every replay re-scored by the engine",
        description="Exit status: 0 everything agrees, 1 something does not, 2 cannot verify.",
    )
    cmd.add_argument("tournament_id", type=an_id, metavar="TOURNAMENT_ID")
    cmd.add_argument("--server", help="default $SPIDERTOUR_URL, else http://127.0.0.1:$PORT")
    cmd.add_argument(
        "--replays", metavar="FILE", help="check the replay lines of FILE ('-': standard input) instead of the server's"
    )
    cmd.set_defaults(run=run_verify)
