"""The Litestar application: ``create_app(config)``, every domain's routes and sockets in one table.

What runs behind them is opened and closed by ``lifespan``.
"""

from __future__ import annotations

import socket
from pathlib import Path

from litestar import Litestar
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

from .brackets import organiser_routes as bracket_organiser
from .brackets import routes as brackets
from .communities import clubs, exports, privacy, roster, sheets
from .communities.organisers import organised
from .communities.organisers import routes as organisers
from .competitions import practice, profiles, progress, teams
from .competitions.analysis import routes as analysis
from .competitions.series import routes as series
from .config import Config
from .lib.client_files import ClientFiles
from .lib.http import JsonRequest
from .lifespan import lifespan
from .matches import routes as matches
from .operations.errors import EXCEPTION_HANDLERS
from .operations.health import health
from .operations.logs import log_exception
from .operations.openapi import ASSET_ROUTES, OPENAPI_CONFIG
from .operations.scrape import metrics
from .operations.security import json_bodies_only, plain_paths, security_headers_with
from .play.sockets import place as play_place
from .play.sockets.asgi import play_socket
from .players import routes as players
from .tournaments import entries, organiser_routes, schedules
from .tournaments import routes as tournaments
from .watch import routes as watch
from .watch.socket import watch_socket

STATIC_DIR = Path(__file__).resolve().parent / "static"  # the web client: plain HTML, CSS and JS modules

ROUTES: list[ControllerRouterHandler] = [
    *tournaments.ROUTES,  # create, list, read; standings, replays and par after the finish
    *players.ROUTES,  # register
    *entries.ROUTES,  # join, my entries
    *watch.ROUTES,  # leaderboard pages, around me, rebuild
    *organiser_routes.ROUTES,  # edit, close, cancel, entries, disqualify, integrity
    *schedules.ROUTES,  # recurring tournaments
    *organisers.ROUTES,  # the owner's organisers, accounts made organisers
    *organised.ROUTES,  # what an organiser manages
    *clubs.ROUTES,  # clubs, their organisers, members and invite code
    *roster.ROUTES,  # a club's member accounts from a list
    *sheets.ROUTES,  # fresh codes for chosen members, as slips to print
    *privacy.ROUTES,  # a profile made public or private, by the player or the club that made it
    *exports.ROUTES,  # standings and club results as CSV
    *progress.ROUTES,  # a class's progress, for its club's organisers
    *profiles.ROUTES,  # a player's public profile: ratings and latest results
    *series.ROUTES,  # series: seasons and leagues, their tournaments and table
    *teams.ROUTES,  # a team battle's team standings
    *practice.ROUTES,  # a finished tournament's deal played again, unranked; my practice games
    *analysis.ROUTES,  # where a finished game's win was lost
    *matches.ROUTES,  # matches: formats, asking, reading, leaving a seat, replays once over
    *brackets.ROUTES,  # knockout brackets: create, list, read, join, replays once finished
    *bracket_organiser.ROUTES,  # a bracket's edit, cancel, disqualify
    play_socket,  # /ws/play/{entry_id} (also on PLAY_PORT: play.sockets.fast)
    *play_place.ROUTES,  # where the play socket is
    watch_socket,  # /ws/watch/{tournament_id}
    health,
    metrics,
    *ASSET_ROUTES,  # the OpenAPI page's own files
]


def create_app(config: Config | None = None, play_listener: socket.socket | None = None) -> Litestar:
    """The app; the play and watch sockets also on ``play_listener`` (or PLAY_PORT) when PLAY_PORT is set."""
    config = config or Config.from_env()
    return Litestar(
        route_handlers=[
            *ROUTES,
            # no-cache: a browser never uses a stored copy unasked, so a new version of the client
            # (its files have no hashed names) is picked up at once; its files are answered from
            # memory, and a current copy with 304 (lib.client_files).
            create_static_files_router(
                path="/",
                directories=[STATIC_DIR],
                html_mode=True,
                name="web",
                cache_control=CacheControlHeader(no_cache=True),
                before_request=ClientFiles(STATIC_DIR).before_request,
            ),
        ],
        lifespan=[lifespan(config, play_listener)],
        openapi_config=OPENAPI_CONFIG,
        logging_config=None,  # configured by `spidertour serve` (operations.logs)
        after_exception=[log_exception],
        middleware=[security_headers_with(config.play_port)],
        guards=[plain_paths, json_bodies_only],
        exception_handlers=EXCEPTION_HANDLERS,
        request_class=JsonRequest,
    )
