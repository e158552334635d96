"""Every message of the HTTP API and the websockets, as msgspec Structs: the single source.

``spidertour schema`` exports their JSON Schema to ``schema/protocol.json``; docs/protocol.md
describes them with examples.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct, field

Index = Annotated[int, Meta(ge=0, le=1000)]
Seq = Annotated[int, Meta(ge=1, le=2**53 - 1)]  # a JavaScript number holds it exactly
Name = Annotated[str, Meta(min_length=1, max_length=40)]


# ----------------------------------------------------------------------------- HTTP bodies


class GameSettings(Struct, forbid_unknown_fields=True):
    """A tournament's game settings (RULES.md). Left out: the defaults of RULES.md."""

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
    # any), within certify_seconds each (default: the server's SOLVER_SECONDS).
    certified: bool = False
    certify_seconds: Annotated[float, Meta(gt=0, le=120)] | None = None
    start: Literal["own", "together"] = "own"


class Par(Struct):
    """The solver's line on the tournament's deal, published with the seed at the finish."""

    outcome: Literal["won", "not found within budget", "proven lost"]
    final_score: int | None  # the line's final score played at `pace` seconds a move; null when not won
    moves: int  # moves in the line (GET /api/tournaments/{id}/par has them)
    pace: float


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


class ScheduleCreate(Struct, forbid_unknown_fields=True):
    """Organiser: a recurring tournament. One opens at first_opens_at + k * every_minutes (k = 0, 1, ...),
    created ahead_minutes before it opens and open for open_minutes."""

    name: Annotated[str, Meta(min_length=1, max_length=80)]
    first_opens_at: datetime
    every_minutes: Annotated[int, Meta(ge=5, le=525_600)]
    open_minutes: Annotated[int, Meta(ge=1, le=525_600)] = 60
    ahead_minutes: Annotated[int, Meta(ge=0, le=525_600)] = 60
    settings: GameSettings = field(default_factory=GameSettings)


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


class Tournament(Struct):
    id: int
    name: str
    status: Literal["scheduled", "open", "closing", "finished", "cancelled"]
    settings: dict[str, Any]
    opens_at: datetime
    closes_at: datetime
    finished_at: datetime | None
    commitment: str
    entrants: int
    start: Literal["own", "together"] = "own"
    seed: str | None = None  # only once finished (or cancelled)
    salt: str | None = None  # with the seed; null also for tournaments created before salts
    certified: bool = False  # the solver won this deal before the tournament was created
    par: Par | None = None  # only once finished and worked out
    cancelled_at: datetime | None = None
    schedule_id: int | None = None  # the schedule that created it


class PlayerCreate(Struct, forbid_unknown_fields=True):
    name: Name


class PlayerCreated(Struct):
    id: int
    name: str
    token: str  # shown once: keep it, the server stores only its hash


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


class Standing(Struct):
    rank: int
    entry_id: int
    player_id: int
    player: str
    score: int
    time_left: int | None
    status: str


# ----------------------------------------------------------------------------- the organiser's integrity report


class FlaggedEntry(Struct):
    entry_id: int
    ordinal: int
    player_id: int
    player: str
    status: str
    score: int  # the final score once over, else the score so far


class SharedAddress(Struct, tag="shared_address"):
    """Entries of different players seen at one client address (kept only as a keyed hash)."""

    address: str  # a short name for the address's keyed hash: the same address, the same name
    seen_at: Literal["registration", "join", "play"]  # which request came from that address
    entries: list[FlaggedEntry]
    summary: str


class Peek(Struct):
    """A move that turned a card face up, taken back by an undo soon after."""

    move: int  # the revealing move's number (1, 2, ... within the entry)
    t: float  # its time, seconds since the game started
    column: int  # the column whose card it turned
    undo_move: int
    undo_t: float
    seconds: float  # between the two


class UndoPeeks(Struct, tag="undo_peek"):
    entry: FlaggedEntry
    peeks: list[Peek]
    summary: str


class DealEvidence(Struct):
    move: int
    t: float
    pile: int | None  # the draw pile dealt (spider78), null for a stock deal


class Scout(Struct, tag="scout"):
    """An entry that dealt most of its piles within seconds of starting, then ended or idled."""

    entry: FlaggedEntry
    deals: list[DealEvidence]
    then: Literal["ended", "idled"]
    then_move: int | None  # the `end` move's number (ended), or the last move before the pause (idled)
    then_t: float  # when it ended, or when the pause began
    idle_seconds: float | None  # how long nothing happened after then_t (idled)
    summary: str


Flag = SharedAddress | UndoPeeks | Scout


class Thresholds(Struct):
    peek_seconds: float  # a revealing move undone within this many seconds is a peek
    scout_seconds: float  # deals within this many seconds of the start count towards scouting
    scout_deals: int  # this many deals (more than half the game's) within scout_seconds ...
    idle_seconds: float  # ... then an end, or nothing for this long


class IntegrityReport(Struct):
    """The organiser's evidence about one tournament: flags to look into, never verdicts."""

    tournament_id: int
    name: str
    status: str
    generated_at: datetime
    entries: int
    thresholds: Thresholds
    flags: list[Flag]


class Health(Struct):
    status: str
    postgres: bool
    redis: bool


class ErrorBody(Struct):
    status_code: int
    detail: str
    extra: Any = None


# ----------------------------------------------------------------------------- play websocket: client -> server


class Auth(Struct, tag="auth", forbid_unknown_fields=True):
    """First message on a play connection: the player's token."""

    token: Annotated[str, Meta(max_length=200)]


class Start(Struct, tag="start", forbid_unknown_fields=True):
    """Start the game: the server's clock starts now."""


class PlayMove(Struct, tag="move", forbid_unknown_fields=True):
    """RULES.md's card move, with the client's sequence number."""

    seq: Seq
    from_: Index = field(name="from")
    count: Annotated[int, Meta(ge=1, le=1000)]
    to: Index


class PlayDeal(Struct, tag="deal", forbid_unknown_fields=True):
    seq: Seq
    pile: Index | None = None


class PlayUndo(Struct, tag="undo", forbid_unknown_fields=True):
    seq: Seq


class PlayEnd(Struct, tag="end", forbid_unknown_fields=True):
    seq: Seq


class Sync(Struct, tag="sync", forbid_unknown_fields=True):
    """Ask for the whole state again (after a reconnect the server sends it unasked)."""


class Ping(Struct, tag="ping", forbid_unknown_fields=True):
    pass


ClientMessage = Auth | Start | PlayMove | PlayDeal | PlayUndo | PlayEnd | Sync | Ping
PlayMessage = PlayMove | PlayDeal | PlayUndo | PlayEnd


# ----------------------------------------------------------------------------- play websocket: server -> client


class DrawPile(Struct):
    count: int
    top: str | None  # null when tops are not shown, or the pile is empty


class View(Struct, omit_defaults=True):
    """What the player sees. Face-down cards are "??"."""

    variant: str
    columns: list[list[str]]
    free_column: int | None
    score: int
    sequences: int
    sequences_to_win: int
    reveals: int
    over: bool
    outcome: Literal["won", "ended", "timed_out"] | None
    free_column_used: bool
    can_undo: bool
    undos_used: int
    draw_piles: list[DrawPile] | None = None
    stock: int | None = None
    deals_left: int | None = None
    time_left: int | None = None
    time_bonus: int | None = None
    free_column_bonus: int | None = None
    final_score: int | None = None


class State(Struct, tag="state"):
    """The whole state of the player's entry: sent after auth, on sync, and on start."""

    entry_id: int
    tournament_id: int
    status: str
    time_limit: int
    last_seq: int
    moves: int
    view: View | None = None  # null until the game has started
    started_at: datetime | None = None
    deadline: datetime | None = None
    time_left: float | None = None  # seconds on the server's clock
    starts_at: datetime | None = None  # start "together": when the server starts every game (while waiting)


class ViewFields(Struct, omit_defaults=True):
    """The fields of the view a move may change, all but the columns (see ``View``)."""

    score: int
    sequences: int
    reveals: int
    over: bool
    outcome: Literal["won", "ended", "timed_out"] | None
    free_column_used: bool
    can_undo: bool
    undos_used: int
    draw_piles: list[DrawPile] | None = None  # after a deal or an undo only
    stock: int | None = None
    deals_left: int | None = None
    time_left: int | None = None
    time_bonus: int | None = None
    free_column_bonus: int | None = None
    final_score: int | None = None


class Result(Struct, tag="result"):
    """A move was accepted and committed. It carries what changed: the view after the move is the
    view before it with ``columns[i]`` replacing column ``changed[i]`` and ``fields`` merged in."""

    seq: int
    n: int  # the server's number for this move (1, 2, ...)
    move: dict[str, Any]
    changed: list[int]  # columns whose cards changed
    columns: list[list[str]]  # their cards now, in the order of ``changed``
    fields: ViewFields
    revealed: int
    completed: int
    time_left: float
    repeated: bool = False  # true when this answers a resent sequence number


class Over(Struct, tag="over"):
    """The game is over: won, ended early, or out of time."""

    outcome: Literal["won", "ended", "timed_out"]
    score: int
    time_left: int
    time_bonus: int
    free_column_bonus: int
    final_score: int


class Error(Struct, tag="error"):
    code: str
    reason: str
    seq: int | None = None


class Pong(Struct, tag="pong"):
    server_time: datetime


ServerMessage = State | Result | Over | Error | Pong


def now() -> datetime:
    return datetime.now(UTC)


encoder = msgspec.json.Encoder()
client_decoder = msgspec.json.Decoder(ClientMessage)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, exported to schema/protocol.json."""
    (_, defs) = msgspec.json.schema_components(
        [
            TournamentCreate,
            TournamentEdit,
            Tournament,
            Disqualify,
            Disqualified,
            OrganiserEntry,
            ScheduleCreate,
            Schedule,
            PlayerCreate,
            PlayerCreated,
            Entry,
            Standing,
            Health,
            ErrorBody,
            IntegrityReport,
            ClientMessage,
            ServerMessage,
        ],
        ref_template="#/$defs/{name}",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "spidertour protocol",
        "$defs": dict(sorted(defs.items())),
    }
