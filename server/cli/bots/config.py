"""A bot run's settings and their checks, and the error that stops a run with one clear line."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .view import POLICIES, ViewRules

DEFAULT_URL = "http://127.0.0.1:8000"


class BotError(Exception):
    """A bad argument or an unusable server answer: one clear line, no traceback."""


@dataclass
class BotConfig:
    servers: list[str] = field(default_factory=lambda: [DEFAULT_URL])
    tournament_id: int | None = None
    admin_token: str | None = None
    players: int = 10
    watchers: int = 0
    policy: str = "random"
    pace: float = 2.0  # moves a second per bot (0: as fast as answers come)
    jitter: float = 0.5  # each wait is 1/pace times a factor in [1 - jitter, 1 + jitter]
    end_early: float = 0.0  # fraction of bots that end their game before the time is up
    duration: float = 30.0
    variant: str = "spider78"
    suits: int | None = None
    time_limit: int = 600
    seed: int | None = None
    compression: str | None = None  # "deflate" or None
    connect_concurrency: int = 64
    watch_sample: int = 20  # watchers that also measure acknowledgement-to-watcher lag
    watch_all: bool = False  # every watcher follows every entry (else: a sampled one 100, the rest one each)
    name_prefix: str = "bot"
    match_format: str | None = None  # --matches: ask for seats in matches of this format instead


def validate(cfg: BotConfig) -> None:
    problems = []
    if cfg.players < 0:
        problems.append("--players must be 0 or more")
    if cfg.watchers < 0:
        problems.append("--watchers must be 0 or more")
    if cfg.players == 0 and cfg.watchers == 0:
        problems.append("nothing to run: give --players or --watchers")
    if cfg.policy not in POLICIES:
        problems.append(f"--policy must be one of {', '.join(POLICIES)}")
    if not (cfg.pace >= 0 and math.isfinite(cfg.pace)):
        problems.append("--pace must be 0 (as fast as answers come) or a positive number of moves a second")
    if not 0 <= cfg.jitter <= 1:
        problems.append("--jitter must be between 0 and 1")
    if not 0 <= cfg.end_early <= 1:
        problems.append("--end-early must be a fraction between 0 and 1")
    if not (cfg.duration > 0 and math.isfinite(cfg.duration)):
        problems.append("--duration must be a positive number of seconds")
    if cfg.match_format is not None:
        if cfg.tournament_id is not None:
            problems.append("give --matches FORMAT or --tournament ID, not both")
        if cfg.watchers:
            problems.append("--watchers follow a tournament's leaderboard: a match has none until it is over")
        if not cfg.match_format.strip():
            problems.append("--matches needs a format's name (spidertour matches formats lists them)")
    elif cfg.tournament_id is None and not cfg.admin_token:
        problems.append("give --tournament ID, or --admin-token (or ADMIN_TOKEN) to create a tournament")
    if cfg.tournament_id is not None and cfg.tournament_id < 1:
        problems.append("--tournament must be a positive id")
    if cfg.time_limit < 1:
        problems.append("--time-limit must be at least 1 second")
    if cfg.connect_concurrency < 1:
        problems.append("--connect-concurrency must be at least 1")
    if cfg.compression not in (None, "deflate"):
        problems.append("--compression must be deflate or none")
    if not cfg.servers:
        problems.append("give at least one --server")
    for s in cfg.servers:
        if not s.startswith(("http://", "https://")):
            problems.append(f"--server must be an http:// or https:// URL, not {s!r}")
    try:
        ViewRules.of({"variant": cfg.variant})
    except ValueError:
        problems.append(f"--variant {cfg.variant!r} is not a game of this server")
    if problems:
        raise BotError("; ".join(problems))
