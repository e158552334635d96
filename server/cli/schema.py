"""``spidertour schema``: every message of the HTTP API and the websockets as one JSON Schema.

Each domain keeps its own messages (``*/messages.py``); this gathers them into
``schema/protocol.json``, which ``--check`` compares with what the code says.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

PROTOCOL_JSON = Path(__file__).resolve().parents[2] / "schema" / "protocol.json"


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message. The messages are imported here, when asked for: every other
    command starts without loading every domain of the server (and the web framework with them)."""
    from ..brackets.messages import Bracket, BracketCreate, BracketDisqualify, BracketEdit
    from ..communities.messages import (
        Club,
        ClubCreate,
        ClubEdit,
        ClubJoin,
        ClubOrganiserAdd,
        CodesAgain,
        CodeSheet,
        Invite,
        Member,
        MemberCode,
        Organised,
        Organiser,
        OrganiserCreate,
        OrganiserCreated,
        ProfileShown,
        ProfileVisibility,
        Roster,
        RosterChecked,
        RosterNames,
    )
    from ..competitions.practice_messages import Analysis, Computing, PracticeEntry
    from ..competitions.profiles import PlayerProfile, RatingHistory
    from ..competitions.progress import ClassProgress
    from ..competitions.series.messages import Series, SeriesCreate, SeriesStanding, SeriesTournamentAdd
    from ..fairplay.messages import IntegrityReport
    from ..matches.messages import Match, MatchAsk, MatchFormatOut, MatchSeat
    from ..operations.errors import ErrorBody
    from ..operations.health import Health
    from ..play.messages import ClientMessage, ServerMessage
    from ..players.messages import PlayerCreate, PlayerCreated
    from ..tournaments.messages import (
        Disqualified,
        Disqualify,
        Entry,
        JoinBody,
        OrganiserEntry,
        Schedule,
        ScheduleCreate,
        Standing,
        Tournament,
        TournamentCreate,
        TournamentEdit,
    )

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
            JoinBody,
            Standing,
            OrganiserCreate,
            OrganiserCreated,
            Organiser,
            Organised,
            ClubCreate,
            ClubEdit,
            Club,
            ClubOrganiserAdd,
            Member,
            Invite,
            ClubJoin,
            RosterNames,
            Roster,
            RosterChecked,
            PlayerProfile,
            RatingHistory,
            ClassProgress,
            ProfileVisibility,
            ProfileShown,
            MemberCode,
            CodesAgain,
            CodeSheet,
            Health,
            ErrorBody,
            IntegrityReport,
            SeriesCreate,
            SeriesTournamentAdd,
            Series,
            SeriesStanding,
            PracticeEntry,
            Analysis,
            Computing,
            MatchAsk,
            MatchFormatOut,
            Match,
            MatchSeat,
            BracketCreate,
            BracketEdit,
            BracketDisqualify,
            Bracket,
            ClientMessage,
            ServerMessage,
        ],
        ref_template="#/$defs/{name}",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "spidertour protocol",
        "$defs": _plain_descriptions(dict(sorted(defs.items()))),
    }


def _plain_descriptions(node: Any) -> Any:
    """Each description as its docstring's text without the source's indentation (one form of the
    file whichever msgspec release wrote it: some keep the indentation, some strip it)."""
    if isinstance(node, dict):
        return {
            key: inspect.cleandoc(value)
            if key == "description" and isinstance(value, str)
            else _plain_descriptions(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_plain_descriptions(item) for item in node]
    return node


def run_schema(args: argparse.Namespace) -> int:
    text = json.dumps(json_schema(), indent=2, sort_keys=False) + "\n"
    output = Path(args.output)
    if args.check:
        current = output.read_text() if output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date: run `spidertour schema`", file=sys.stderr)
            return 1
        return 0
    try:
        output.write_text(text)
    except OSError as err:
        print(f"error: cannot write {args.output}: {err.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}")
    return 0


def add_command(sub: Any) -> None:
    schema = sub.add_parser("schema", help="export the protocol's JSON Schema")
    schema.add_argument("--output", default=str(PROTOCOL_JSON), help="where to write it (default schema/protocol.json)")
    schema.add_argument("--check", action="store_true", help="only check that the file is current")
    schema.set_defaults(run=run_schema)
