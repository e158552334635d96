"""A player's public profile: its name and handle, its rating in every game it was rated in, and
its latest results. Nothing secret: no token, session, code or password is read here.

A private profile (a roster's accounts start private: communities.privacy) is read by the player,
the owner and its clubs only; anyone else gets the 404 of a missing player. Its latest results name
an unlisted tournament only to a caller who sees it in the tournaments' list (or the player itself)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from litestar import Request, get
from litestar.exceptions import NotFoundException
from msgspec import Struct

from ..communities.identity import viewer_of
from ..communities.privacy import may_see_profile
from ..core import core_of
from ..lib.http import valid_id
from ..operations.openapi import errors
from . import rating_store as store
from .rating_store import Rating
from .ratings import game_of, ordinal

RECENT = 20  # results on a profile


class GameRating(Struct):
    """A rating in one game: OpenSkill's mu and sigma, the ordinal shown (mu - 3 sigma), games rated."""

    mu: float
    sigma: float
    ordinal: float
    games: int


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


class PlayerProfile(Struct):
    id: int
    name: str
    handle: str | None
    public: bool  # false: shown to the player itself and its clubs only
    ratings: dict[str, GameRating]  # keyed "variant/suits", e.g. "spider78/2"
    recent: list[ProfileResult]  # the latest results, newest first


@get("/api/players/{player_id:int}", responses=errors(404))
async def player_profile(request: Request[Any, Any, Any], player_id: int) -> PlayerProfile:
    """Anyone: a player's public profile: name, handle, ratings per game and its latest 20 results.
    A private one (a roster's accounts start so) only for the player and its clubs: 404 for others."""
    db = core_of(request).db
    found = await store.profile_player(db, player_id) if valid_id(player_id) else None
    viewer = await viewer_of(request)
    if found is None or not await may_see_profile(db, viewer, player_id, found["profile_public"]):
        raise NotFoundException(f"no player {player_id}")
    everything = viewer.owner or viewer.player_id == player_id
    seen = (everything, viewer.organiser_id, viewer.clubs)
    ratings = {}
    for row in await store.ratings_of(db, player_id):
        rating = Rating(row["mu"], row["sigma"], row["games"])
        ratings[row["game"]] = GameRating(rating.mu, rating.sigma, ordinal(rating), rating.games)
    recent = [
        ProfileResult(
            tournament_id=r["tournament_id"],
            tournament=r["tournament"],
            game=game_of(r["settings"]),
            rank=r["rank"],
            entrants=r["entrants"],
            final_score=r["final_score"],
            finished_at=r["finished_at"],
            rating=None if r["mu"] is None else ordinal(Rating(r["mu"], r["sigma"], 0)),
            match_id=r["match_id"],
            bracket_id=r["bracket_id"],
        )
        for r in await store.recent_results(db, player_id, RECENT, seen)
    ]
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


ROUTES = [player_profile]
