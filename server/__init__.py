"""spidertour's tournament server: Litestar, msgspec, asyncpg and redis-py around the engine.

Its packages, each owning its routes, SQL and messages (lower ones never import higher ones):

- ``storage``: the PostgreSQL pool, the migrations of ``schema/``, embedded servers, shared SQL
- ``operations``: metrics, logs, security headers, the OpenAPI page, error answers, health
- ``lib``: HTTP helpers, tokens and hashes, batching, the messages both websockets send
- ``fairplay``: commitments, per-address limits, the integrity report
- ``players``: registration, and the player behind a token
- ``watch``: leaderboards in Redis, the hub between processes, the watch socket, standings
- ``play``: the play socket, one writer per entry, games rebuilt from their moves, batched commits
- ``tournaments``: creation and certified deals, entries, the organiser's actions, schedules,
  the clock, standings, replays and par
- ``cli``: the ``spidertour`` command line and its clients (organiser commands, verify, solve, bots)

``config`` reads the environment, ``core`` holds what everything shares, ``app`` assembles the
routes and ``lifespan`` opens and closes what runs behind them.
"""
