"""A player's public profile: its name and handle, its rating in every game it was rated in, and
its latest results. Nothing secret: no token, session, code or password is read here.

The ratings are said as people read them (rating_scale): ``rating`` a whole number, ``provisional``
while few games are rated, and each result's change. ``/ratings/history`` serves the rating before
and after every rated game, per game, for the profile's graph.

A private profile (a roster's accounts start private: communities.privacy) is read by the player,
the owner and its clubs only; anyone else gets the 404 of a missing player. Its latest results name
an unlisted tournament only to a caller who sees it in the tournaments' list (or the player itself)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from litestar import Request, get
from litestar.exceptions import NotFoundException
from msgspec import Struct

from ..communities.identity import Viewer, viewer_of
from ..communities.privacy import may_see_profile
from ..core import core_of
from ..lib.http import valid_id
from ..operations.openapi import errors
from . import rating_store as store
from .rating_scale import PROVISIONAL_GAMES, provisional, shown, shown_of
from .rating_store import Rating
from .ratings import game_of, ordinal

RECENT = 20  # results on a profile
HISTORY = 100  # rated games per game kind in a rating history (the latest)
Seen = tuple[bool, int | None, list[int]]  # what a caller sees of a player's tournaments (rating_store)


class GameRating(Struct):
    """A rating in one game: OpenSkill's mu and sigma, the ordinal (mu - 3 sigma), games rated;
    ``rating``: the number shown (1000 + 40 x ordinal, rounded), ``provisional`` under 5 games."""

    mu: float
    sigma: float
    ordinal: float
    games: int
    rating: int
    provisional: bool


class ProfileResult(Struct):
    """One finished tournament or match of the player: its rank among the ranked entrants; ``rating``:
    the ordinal of the tournament's game after it (null when the tournament left it unrated)."""

    tournament_id: int
    tournament: str
    game: str
    rank: int
    entrants: int
    final_score: int
    finished_at: datetime
    rating: float | None
    match_id: int | None = None  # a match's result (docs/matches.md): its tournament backs the match
    bracket_id: int | None = None  # a knockout bracket's place, or one of its games: the bracket
    shown: int | None = None  # the rating shown after it (null: unrated)
    change: int | None = None  # the shown rating's change by it (null: unrated)
    provisional: bool = False  # the rating after it was still provisional


class PlayerProfile(Struct):
    id: int
    name: str
    handle: str | None
    public: bool  # false: shown to the player itself and its clubs only
    ratings: dict[str, GameRating]  # keyed "variant/suits", e.g. "spider78/2"
    recent: list[ProfileResult]  # the latest results, newest first


class RatingPoint(Struct):
    """One rated game of the player (a tournament, a match or a bracket's game): its rating shown
    ``before`` and ``after`` it, the ``change``, the rated ``games`` after it and whether the rating
    was still ``provisional`` then. ``tournament_id`` and ``tournament`` are null for a tournament the
    caller does not see listed (its point still counts)."""

    tournament_id: int | None
    tournament: str | None
    finished_at: datetime
    rank: int
    entrants: int
    before: int
    after: int
    change: int
    games: int
    provisional: bool
    match_id: int | None = None
    bracket_id: int | None = None


class RatingHistory(Struct):
    """``history`` keyed "variant/suits": the latest 100 rated games of each, oldest first;
    ``provisional_games``: a rating is provisional under this many rated games."""

    player_id: int
    provisional_games: int
    history: dict[str, list[RatingPoint]]


async def _visible(request: Request[Any, Any, Any], player_id: int) -> tuple[Any, Viewer, Seen]:
    """The player's row, the caller and what it sees of its tournaments; 404 when it may not read it."""
    db = core_of(request).db
    found = await store.profile_player(db, player_id) if valid_id(player_id) else None
    viewer = await viewer_of(request)
    if found is None or not await may_see_profile(db, viewer, player_id, found["profile_public"]):
        raise NotFoundException(f"no player {player_id}")
    everything = viewer.owner or viewer.player_id == player_id
    return found, viewer, (everything, viewer.organiser_id, viewer.clubs)


@get("/api/players/{player_id:int}/ratings/history", responses=errors(404))
async def player_rating_history(request: Request[Any, Any, Any], player_id: int) -> RatingHistory:
    """Anyone who may read the player's profile: its rating before and after each of its latest 100
    rated games per game, oldest first, as shown (a whole number) with the change. 404 as the profile."""
    _, _, seen = await _visible(request, player_id)
    history: dict[str, list[RatingPoint]] = {}
    for r in await store.history(core_of(request).db, player_id, HISTORY, seen):
        before, after = shown_of(r["mu_before"], r["sigma_before"]), shown_of(r["mu"], r["sigma"])
        history.setdefault(r["game"], []).append(
            RatingPoint(
                tournament_id=r["tournament_id"] if r["seen"] else None,
                tournament=r["tournament"] if r["seen"] else None,
                finished_at=r["finished_at"],
                rank=r["rank"],
                entrants=r["entrants"],
                before=before,
                after=after,
                change=after - before,
                games=r["games"],
                provisional=provisional(r["games"]),
                match_id=r["match_id"] if r["seen"] else None,
                bracket_id=r["bracket_id"] if r["seen"] else None,
            )
        )
    return RatingHistory(player_id=player_id, provisional_games=PROVISIONAL_GAMES, history=history)


def _result(r: Any) -> ProfileResult:
    rated = r["mu"] is not None
    after = shown_of(r["mu"], r["sigma"]) if rated else None
    return ProfileResult(
        tournament_id=r["tournament_id"],
        tournament=r["tournament"],
        game=game_of(r["settings"]),
        rank=r["rank"],
        entrants=r["entrants"],
        final_score=r["final_score"],
        finished_at=r["finished_at"],
        rating=ordinal(Rating(r["mu"], r["sigma"], 0)) if rated else None,
        match_id=r["match_id"],
        bracket_id=r["bracket_id"],
        shown=after,
        change=None if after is None else after - shown_of(r["mu_before"], r["sigma_before"]),
        provisional=rated and provisional(r["games"]),
    )


@get("/api/players/{player_id:int}", responses=errors(404))
async def player_profile(request: Request[Any, Any, Any], player_id: int) -> PlayerProfile:
    """Anyone: a player's public profile: name, handle, ratings per game and its latest 20 results.
    A private one (a roster's accounts start so) only for the player and its clubs: 404 for others."""
    db = core_of(request).db
    found, viewer, seen = await _visible(request, player_id)
    ratings = {}
    for row in await store.ratings_of(db, player_id):
        rating = Rating(row["mu"], row["sigma"], row["games"])
        value = ordinal(rating)
        ratings[row["game"]] = GameRating(
            rating.mu, rating.sigma, value, rating.games, shown(value), provisional(rating.games)
        )
    recent = [_result(r) for r in await store.recent_results(db, player_id, RECENT, seen)]
    # A roster member whose club keeps names from the public: its full name and handle for itself
    # and its clubs, its initials and no handle for the others (its profile made public).
    insider = found["roster_name"] is None or await may_see_profile(db, viewer, player_id, False)
    return PlayerProfile(
        id=found["id"],
        name=found["roster_name"] if found["roster_name"] is not None and insider else found["name"],
        handle=found["handle"] if insider else None,
        public=found["profile_public"],
        ratings=ratings,
        recent=recent,
    )


ROUTES = [player_profile, player_rating_history]
