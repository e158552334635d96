"""A bracket played out by the server with nobody connected: seeding by rating with byes, rounds
started together and timed out, the higher seed through when both are absent, a player who played
through against an absent one, the champion and shared places, and the secrecy of later rounds."""

from __future__ import annotations

from pathlib import Path

from tests.client import Api, Player, bearer
from tests.server.helpers import FREE, canonical_commitment, fetch, spidertour
from tests.server.matches.kit import set_rating
from tests.serverproc import ServerProcess

from .kit import bracket, create, join, open_soon, players, seeds_of, wait_for


async def test_five_entrants_byes_rounds_and_champion_with_nobody_connected(
    bapi: Api, bracket_server: ServerProcess, bracket_db: str
) -> None:
    field = players(bapi, 5)
    for rank, (pid, _) in enumerate(field):  # ratings 40, 30, 20, 10, 0 (the last unrated)
        if rank < 4:
            await set_rating(bracket_db, pid, 40.0 - 10 * rank)
    cup = create(bapi)
    assert cup["status"] == "scheduled" and cup["seed"] is None and cup["rounds"] == []
    for _, token in reversed(field):  # joined in reverse: seeding goes by rating, not by joining
        entry = join(bapi, cup["id"], token)
        assert entry["bracket_id"] == cup["id"] and "round" not in entry
    open_soon(bapi, cup["id"])
    running = wait_for(bapi, cup["id"], "running", rounds=1)
    assert running["size"] == 8 and running["entrants"] == 5
    assert seeds_of(running) == [[1], [4, 5], [2], [3]]  # byes to seeds 1-3
    seed_of = {p["player_id"]: p["seed"] for pr in running["rounds"][0]["pairings"] for p in pr["players"]}
    assert [seed_of[pid] for pid, _ in field] == [1, 2, 3, 4, 5]
    assert [pr["winner"] for pr in running["rounds"][0]["pairings"]] == [field[0][0], None, field[1][0], field[2][0]]
    # The round's game: secret while the bracket runs, announced on the players' entries.
    game_entry = running["rounds"][0]["pairings"][1]["players"][0]["entry_id"]
    mine = bapi.http.get("/api/me/entries", headers=bearer(field[3][1])).json()
    game = next(e for e in mine if e["id"] == game_entry)
    assert game["bracket_id"] == cup["id"] and game["round"] == 1
    assert bapi.http.get(f"/api/tournaments/{game['tournament_id']}").status_code == 404
    assert bapi.http.get(f"/api/tournaments/{cup['id']}").status_code == 404  # read as a bracket
    assert bapi.http.get(f"/api/brackets/{cup['id']}/replays").status_code == 403

    done = wait_for(bapi, cup["id"], "finished")
    assert [len(r["pairings"]) for r in done["rounds"]] == [4, 2, 1]
    assert seeds_of(done, 2) == [[1, 4], [2, 3]] and seeds_of(done, 3) == [[1, 2]]
    assert done["champion"] == {"player_id": field[0][0], "player": bracket(bapi, cup["id"])["champion"]["player"]}
    # Absent from every game: 0 and 0, the higher seed through each time.
    for rnd in done["rounds"][1:]:
        for pr in rnd["pairings"]:
            assert [(p["final_score"], p["time_left"]) for p in pr["players"]] == [(0, 0), (0, 0)]
            assert pr["winner"] == pr["players"][0]["player_id"]
    # The seed, the salt and every round's deal: revealed now, each round on <seed>/<round>.
    assert done["seed"] and done["commitment"] == canonical_commitment(done["seed"], done["settings"], done["salt"])
    games = await fetch(
        bracket_db,
        "SELECT bp.round, t.seed, t.kind FROM bracket_pairings bp JOIN tournaments t ON t.id = bp.tournament_id "
        "WHERE bp.bracket_id = $1 ORDER BY bp.round, bp.slot",
        cup["id"],
    )
    assert [(r["round"], r["seed"]) for r in games] == [(r, f"{done['seed']}/{r}") for r in (1, 2, 2, 3)]
    assert bapi.http.get(f"/api/tournaments/{game['tournament_id']}").json()["seed"] == f"{done['seed']}/1"
    replays = bapi.http.get(f"/api/brackets/{cup['id']}/replays")
    assert replays.status_code == 200 and [line.count('"round"') for line in replays.text.splitlines()] == [1] * 8
    # Places: champion 1, finalist 2, the semi-finals' losers 3=, round 1's loser 5.
    places = await fetch(
        bracket_db, "SELECT player_id, rank FROM standings WHERE tournament_id = $1 ORDER BY rank", cup["id"]
    )
    assert {r["player_id"]: r["rank"] for r in places} == {
        field[0][0]: 1,
        field[1][0]: 2,
        field[2][0]: 3,
        field[3][0]: 3,
        field[4][0]: 5,
    }
    # Nobody played: nothing rated.
    assert await fetch(bracket_db, "SELECT 1 FROM rating_history WHERE player_id = $1", field[0][0]) == []
    # The champion's profile lists its place and its games, each leading to the bracket.
    recent = bapi.http.get(f"/api/players/{field[0][0]}").json()["recent"]
    assert recent and {r["bracket_id"] for r in recent} == {cup["id"]}
    assert [r["rank"] for r in recent if r["tournament_id"] == cup["id"]] == [1]


async def test_a_player_who_plays_beats_an_absent_higher_seed(
    bapi: Api, bracket_server: ServerProcess, bracket_db: str, tmp_path: Path
) -> None:
    (top, top_token), (low, low_token) = players(bapi, 2)
    await set_rating(bracket_db, top, 30.0)
    cup = create(bapi, settings={"variant": "spider78", "suits": 2, "time_limit": 4})
    join(bapi, cup["id"], top_token)
    join(bapi, cup["id"], low_token)
    open_soon(bapi, cup["id"])
    running = wait_for(bapi, cup["id"], "running", rounds=1)
    [pairing] = running["rounds"][0]["pairings"]
    assert [p["seed"] for p in pairing["players"]] == [1, 2] and pairing["players"][1]["player_id"] == low
    player, state = await Player.connect(bracket_server.ws_url, pairing["players"][1]["entry_id"], low_token)
    try:
        while state["status"] != "playing":  # the server starts both games together, connected or not
            state = await player.recv()
        answer = await player.play({"type": "move", "from": 0, "count": 1, "to": FREE})
        assert answer["type"] == "result", answer
        answer = await player.play({"type": "end"})
    finally:
        await player.close()
    done = wait_for(bapi, cup["id"], "finished")
    [pairing] = done["rounds"][0]["pairings"]
    assert pairing["winner"] == low and done["champion"]["player_id"] == low
    assert pairing["players"][0]["final_score"] == 0 and pairing["players"][1]["final_score"] > 0
    # The absent player is not rated; one game started: nothing rated.
    assert await fetch(bracket_db, "SELECT 1 FROM rating_history WHERE player_id = $1", top) == []
    # Verified from what the server published alone; a score changed in a replay is caught.
    checked = spidertour("verify", "--server", bracket_server.url, "--bracket", str(cup["id"]))
    assert checked.returncode == 0 and "OK: the seed matches the commitment and all 2 game(s)" in checked.stdout
    replays = bapi.http.get(f"/api/brackets/{cup['id']}/replays").text
    forged = tmp_path / "forged.ndjson"
    forged.write_text(replays.replace('"final_score":0', '"final_score":500'))
    caught = spidertour("verify", "--server", bracket_server.url, "--bracket", str(cup["id"]), "--replays", str(forged))
    assert caught.returncode == 1 and "FAILED" in caught.stdout
