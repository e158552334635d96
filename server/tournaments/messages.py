"""The tournaments' messages over HTTP: what organisers send and what everyone reads.

Each domain keeps its own messages as msgspec Structs; ``spidertour schema`` exports all of them
as one JSON Schema (``schema/protocol.json``), and docs/protocol.md describes them with examples.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, Struct, UnsetType, field

from ..communities.messages import ClubRef as ClubRef
from ..communities.messages import OrganiserRef as OrganiserRef
from ..lib.ids import MAX_ID

EntryCode = Annotated[str, Meta(min_length=4, max_length=64)]
# A rating limit: an ordinal (mu - 3 sigma) of the tournament's game (docs/competitions.md, Ratings).
RatingLimit = Annotated[float, Meta(ge=-1000, le=1000)]


class GameSettings(Struct, forbid_unknown_fields=True):
    """A tournament's game settings (docs/rules.md). Left out: the defaults of docs/rules.md."""

    variant: str = "spider78"
    suits: int | None = None
    free_column: bool | None = None
    undo: bool = True
    undo_limit: int | None = None
    time_limit: int = 600
    draw_pile_choice: bool = True
    draw_pile_tops_up: bool = True
    reveals_final: bool = False  # a revealed card stays revealed: undo gives no free peek
    deal_variation: bool = False  # every entry plays the deal renamed: no two boards look alike
    # Several deals in one event: every entrant plays `deals` games, deal k dealt from "<seed>/<k>",
    # ranked by the total of their final scores or by matchpoints (docs/competitions.md). Left out
    # of the stored settings (and so of the commitment) at their defaults.
    deals: Annotated[int, Meta(ge=1, le=10)] = 1
    scoring: Literal["total", "matchpoints"] = "total"


class TeamBattle(Struct, forbid_unknown_fields=True):
    """A team battle: every entrant plays for one of its clubs, and a team counts the sum of its
    ``top`` best scores (docs/competitions.md)."""

    top: Annotated[int, Meta(ge=1, le=50)]


class TournamentCreate(Struct, forbid_unknown_fields=True):
    """Organiser: create a tournament. Times default to now and one hour later.

    ``start``: "own" (each entrant starts its own clock while the tournament is open) or
    "together" (entries until ``opens_at``, then the server starts every game at once; the
    tournament closes at ``opens_at + time_limit``, so ``closes_at`` is left out).
    """

    name: Annotated[str, Meta(min_length=1, max_length=100)]
    settings: GameSettings = field(default_factory=GameSettings)
    opens_at: datetime | None = None
    closes_at: datetime | None = None
    seed: Annotated[str, Meta(min_length=1, max_length=256)] | None = None
    # A certified deal: the server draws seeds until its solver wins one (only the given seed, if
    # any), within certify_seconds CPU seconds each (default: the server's SOLVER_SECONDS).
    certified: bool = False
    certify_seconds: Annotated[float, Meta(gt=0, le=120)] | None = None
    start: Literal["own", "together"] = "own"
    # Who may join: a club's members only (a club its creator organises), holders of the entry
    # code, or both. Unlisted tournaments are left out of the public list; by default a club or
    # code tournament is unlisted, an open one listed.
    club: Annotated[int, Meta(ge=1)] | None = None
    entry_code: EntryCode | None = None
    listed: bool | None = None
    # Ratings: a rated tournament updates its entrants' ratings of its game when it finishes; the
    # limits keep out players whose rating (ordinal) of that game lies outside them.
    rated: bool = True
    rating_min: RatingLimit | None = None
    rating_max: RatingLimit | None = None
    series: Annotated[int, Meta(ge=1)] | None = None  # a series the caller runs: the tournament joins it
    teams: TeamBattle | None = None  # a team battle between clubs; null: none


class Par(Struct):
    """The solver's line on the tournament's deal, published with the seed at the finish."""

    outcome: Literal["won", "not found within budget", "proven lost"]
    # The line's final score as the engine replays it at `pace` seconds a move: its win when `in_time`,
    # else what it reaches when time runs out (no time bonus); null when not won.
    final_score: int | None
    moves: int  # moves in the whole line (GET /api/tournaments/{id}/par has them, as far as the clock lets)
    pace: float  # seconds a move: a pace a strong human keeps up (2), 1 for pars stored before it was stated
    in_time: bool = False  # the line, at `pace`, wins before the time limit


class Winner(Struct):
    """A finished tournament's first place: who, the final score (a total over several deals) and the
    time left at the end."""

    player: str
    score: int
    time_left: int


class TournamentEdit(Struct, forbid_unknown_fields=True):
    """Organiser: change a tournament before it opens. Fields left out stay as they are."""

    name: Annotated[str, Meta(min_length=1, max_length=100)] | None = None
    settings: GameSettings | None = None
    opens_at: datetime | None = None
    closes_at: datetime | None = None
    seed: Annotated[str, Meta(min_length=1, max_length=256)] | None = None


class Disqualify(Struct, forbid_unknown_fields=True):
    """Organiser: take an entry out of the ranking, saying why (shown to everyone)."""

    reason: Annotated[str, Meta(min_length=1, max_length=200)]


class Disqualified(Struct):
    entry_id: int
    player_id: int
    player: str
    status: str
    reason: str
    at: datetime


class OrganiserEntry(Struct):
    """An entry as the organiser sees it. ``time_left``: counted now while playing, else at the end."""

    id: int
    ordinal: int
    player_id: int
    player: str
    status: str
    moves: int
    score: int
    final_score: int | None
    time_left: int | None
    joined_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    disqualified: str | None
    disqualified_at: datetime | None
    connected: bool = False  # its player opened the game (a play socket) at least once: false, never came


class ScheduleCreate(Struct, forbid_unknown_fields=True):
    """Organiser: a recurring tournament. One opens at first_opens_at + k * every_minutes (k = 0, 1, ...),
    created ahead_minutes before it opens and open for open_minutes."""

    name: Annotated[str, Meta(min_length=1, max_length=80)]
    first_opens_at: datetime
    every_minutes: Annotated[int, Meta(ge=5, le=525_600)]
    open_minutes: Annotated[int, Meta(ge=1, le=525_600)] = 60
    ahead_minutes: Annotated[int, Meta(ge=0, le=525_600)] = 60
    settings: GameSettings = field(default_factory=GameSettings)
    # Every setting a tournament takes, for each tournament the schedule creates.
    start: Literal["own", "together"] = "own"
    certified: bool = False
    certify_seconds: Annotated[float, Meta(gt=0, le=120)] | None = None
    club: Annotated[int, Meta(ge=1)] | None = None
    entry_code: EntryCode | None = None
    listed: bool | None = None
    rated: bool = True
    rating_min: RatingLimit | None = None
    rating_max: RatingLimit | None = None
    series: Annotated[int, Meta(ge=1)] | None = None  # every tournament it creates joins this series
    teams: TeamBattle | None = None


class Schedule(Struct):
    id: int
    name: str
    settings: dict[str, Any]
    first_opens_at: datetime
    every_minutes: int
    open_minutes: int
    ahead_minutes: int
    active: bool
    next_opens_at: datetime | None  # the next occurrence still to open (None once stopped)
    tournaments: list[int]  # the latest tournaments it created, newest first
    start: Literal["own", "together"] = "own"
    certified: bool = False
    certify_seconds: float | None = None
    organiser: OrganiserRef | None = None
    club: ClubRef | None = None
    listed: bool = True
    entry_code: str | None = None  # shown to its organisers
    rated: bool = True
    rating_min: float | None = None
    rating_max: float | None = None
    series: int | None = None  # the series its tournaments join
    teams: TeamBattle | None = None


class Tournament(Struct):
    id: int
    name: str
    status: Literal["scheduled", "open", "closing", "finished", "cancelled"]
    settings: dict[str, Any]
    opens_at: datetime
    closes_at: datetime
    finished_at: datetime | None
    commitment: str
    entrants: int  # entries in the ranking: everyone who joined, never started included, disqualified not
    start: Literal["own", "together"] = "own"
    seed: str | None = None  # only once finished (or cancelled)
    salt: str | None = None  # with the seed; null also for tournaments created before salts
    certified: bool = False  # the solver won this deal before the tournament was created
    par: Par | None = None  # only once finished and worked out
    cancelled_at: datetime | None = None
    schedule_id: int | None = None  # the schedule that created it
    organiser: OrganiserRef | None = None  # who runs it; null: the owner
    club: ClubRef | None = None  # only the club's members may join
    listed: bool = True  # false: left out of the public list, readable by id
    entry_code_needed: bool = False  # joining takes {"entry_code": ...}
    entry_code: str | None = None  # shown to its organisers (and the owner) only
    rated: bool = True  # its finish updates the ratings of its game ("variant/suits")
    rating_min: float | None = None  # only players rated (ordinal) at least this in its game may join
    rating_max: float | None = None  # ... and at most this
    series: int | None = None  # the series it belongs to
    teams: TeamBattle | None = None  # a team battle: each entrant joins for one of its clubs
    winner: Winner | None = None  # once finished: the first of the standings (null: nobody ranked)
    disqualified: int = 0  # entries disqualified (left out of ``entrants`` and of the ranking)


class JoinBody(Struct, forbid_unknown_fields=True):
    """Player: joining a tournament that takes an entry code or is a team battle (no body needed
    otherwise). ``team``: the club (one of the player's) it plays for in a team battle."""

    entry_code: Annotated[str, Meta(max_length=64)] | None = None
    team: Annotated[int, Meta(ge=1, le=MAX_ID)] | None = None  # a club's id: a PostgreSQL bigint


class Entry(Struct):
    id: int
    tournament_id: int
    tournament: str  # the tournament's name
    player_id: int
    player: str
    status: Literal["joined", "playing", "won", "ended", "timed_out", "absent"]
    score: int
    final_score: int | None
    time_left: int | None
    started_at: datetime | None
    deadline: datetime | None
    # A knockout bracket's (docs/matches.md): its id, on the entry that joined it and on each of its
    # games, which also carries its ``round`` (both left out otherwise).
    bracket_id: int | UnsetType = UNSET
    round: int | UnsetType = UNSET


class Standing(Struct):
    rank: int
    entry_id: int
    player_id: int
    player: str
    score: int
    time_left: int | None
    status: str
    team: ClubRef | None = None  # in a team battle, the club the entry plays for
    # With scoring "matchpoints", once finished: the entry's matchpoints (left out otherwise).
    matchpoints: float | UnsetType = UNSET
    profile: bool = True  # anyone may read the player's profile (false: a private one, kept to its clubs)
