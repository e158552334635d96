"""``spidertour bots --check-acks FILE``: every acknowledged move a run logged is in PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

from .config import BotError


async def check_acks(path: str, database_url: str) -> tuple[int, list[str]]:
    """Every logged acknowledgement must be in PostgreSQL's moves (same entry, n, seq and move)."""
    import asyncpg

    logged: dict[tuple[int, int], dict[str, Any]] = {}
    problems: list[str] = []
    try:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    key = (int(rec["entry_id"]), int(rec["n"]))
                    item = {"seq": int(rec["seq"]), "move": rec["move"]}
                except RecursionError:
                    raise BotError(f"{path}:{i}: not an acknowledgement line (nested too deeply)") from None
                except (ValueError, KeyError, TypeError) as err:
                    raise BotError(f"{path}:{i}: not an acknowledgement line ({err})") from err
                if key in logged and logged[key] != item:
                    problems.append(f"entry {key[0]} move {key[1]} was acknowledged twice, differently")
                logged[key] = item
    except UnicodeDecodeError:
        raise BotError(f"{path}: not an acknowledgement log (not UTF-8 text)") from None
    except OSError as err:
        raise BotError(f"cannot read {path}: {err.strerror}") from err
    try:
        conn = await asyncpg.connect(database_url, timeout=10)
    except (OSError, asyncpg.PostgresError, TimeoutError) as err:
        raise BotError(f"cannot connect to the database: {err}") from err
    try:
        entries = sorted({e for e, _ in logged})
        rows = await conn.fetch(
            "SELECT entry_id, n, seq, move::text AS move FROM moves WHERE entry_id = ANY($1::bigint[])", entries
        )
    finally:
        await conn.close()
    stored = {(r["entry_id"], r["n"]): (r["seq"], json.loads(r["move"])) for r in rows}
    for (entry_id, n), item in sorted(logged.items()):
        found = stored.get((entry_id, n))
        if found is None:
            problems.append(f"entry {entry_id} move {n} (seq {item['seq']}) was acknowledged but is not stored")
        elif found != (item["seq"], item["move"]):
            problems.append(
                f"entry {entry_id} move {n}: acknowledged seq {item['seq']} {item['move']}, "
                f"stored seq {found[0]} {found[1]}"
            )
    return len(logged), problems
