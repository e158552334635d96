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
finished yet, server unreachable, unreadable file). ``verify --match ID`` checks a match that is over
the same way, through the match's own routes (competitions/match_verify.py).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..competitions.deal_checks import by_entry, deal_count, matchpoint_checks
from ..config import ConfigError
from .args import an_id
from .client import server_url
from .competitions.bracket_verify import fetch_bracket, verify_bracket_data
from .competitions.match_verify import fetch_match, verify_match_data
from .competitions.replay_checks import Check, GameCheck, Report, commitment_of
from .competitions.replay_checks import VerifyError as VerifyError  # callers catch it from here
from .competitions.replay_checks import game_check as _game
from .competitions.replay_checks import settings_check as _settings_check

PAGE = 500  # standings rows per request (the server's largest page)


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


def _client(base_url: str) -> Any:
    import httpx

    if not base_url.startswith(("http://", "https://")):
        raise VerifyError(f"not a server address: {base_url!r} (give http://host:port)")
    try:
        return httpx.Client(base_url=base_url, timeout=15)
    except (httpx.InvalidURL, ValueError) as err:
        raise VerifyError(f"not a server address: {base_url!r} ({err})") from None


def fetch(base_url: str, tournament_id: int, client: Any = None) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """The finished tournament, its replays (JSON Lines text) and all its standings."""
    own = client is None
    if own:
        client = _client(base_url)
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


def verify_match(base_url: str, match_id: int, replays: str | None = None, client: Any = None) -> Report:
    """Fetch and check a match that is over (docs/matches.md), through its own routes."""
    own = client is None
    if own:
        client = _client(base_url)
    try:
        match, published = fetch_match(client, _get, match_id)
    finally:
        if own:
            client.close()
    return verify_match_data(match, published if replays is None else replays)


def verify_bracket(base_url: str, bracket_id: int, replays: str | None = None) -> Report:
    """Fetch and check a finished knockout bracket (docs/matches.md), through its own routes."""
    client = _client(base_url)
    try:
        bracket, published = fetch_bracket(client, _get, bracket_id)
    finally:
        client.close()
    return verify_bracket_data(bracket, published if replays is None else replays)


# ----------------------------------------------------------------------------- the command


def render(report: Report, file: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=file or sys.stdout, width=110, highlight=False)
    t = report.tournament
    kind = "Match" if "format" in t else "Bracket" if "break_seconds" in t else "Tournament"
    console.print(f"{kind} {t.get('id')} {t.get('name')!r}: {t.get('status')}, finished at {t.get('finished_at')}")
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
        if [args.tournament_id, args.match, args.bracket].count(None) != 2:
            raise VerifyError("give a TOURNAMENT_ID, --match ID or --bracket ID (one of them)")
        if args.bracket is not None:
            report = verify_bracket(url, args.bracket, replays)
        elif args.match is not None:
            report = verify_match(url, args.match, replays)
        else:
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
        help="check a finished tournament (or --match ID: a match over): seed against commitment, every replay "
        "re-scored by the engine",
        description="Exit status: 0 everything agrees, 1 something does not, 2 cannot verify.",
    )
    cmd.add_argument("tournament_id", type=an_id, metavar="TOURNAMENT_ID", nargs="?")
    cmd.add_argument("--match", type=an_id, metavar="ID", help="check the match ID that is over instead")
    cmd.add_argument("--bracket", type=an_id, metavar="ID", help="check the finished knockout bracket ID instead")
    cmd.add_argument("--server", help="default $SPIDERTOUR_URL, else http://127.0.0.1:$PORT")
    cmd.add_argument(
        "--replays", metavar="FILE", help="check the replay lines of FILE ('-': standard input) instead of the server's"
    )
    cmd.set_defaults(run=run_verify)
