"""Ids on the command line are plain digits: ``int()`` would read ``+1``, `` 1``, ``1_0`` and other
scripts' digits as an id, and a command would act on a tournament nobody named."""

from __future__ import annotations

from typing import Any

import pytest

from tests.client import Api
from tests.server.helpers import spidertour, unique

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.mark.parametrize("form", ["arabic", "plus", "space", "underscore", "fullwidth"])
def test_ids_not_in_plain_digits_are_refused(api: Api, server: Any, admin_token: str, form: str) -> None:
    tour = api.create_tournament(name=unique("cli-ids"), opens_in=600, closes_in=1200)
    tid = str(tour["id"])
    written = {
        "arabic": tid.translate(ARABIC_INDIC),
        "plus": f"+{tid}",
        "space": f" {tid}",
        "underscore": f"{tid[0]}_{tid[1:]}" if len(tid) > 1 else f"0_{tid}",
        "fullwidth": "".join(chr(ord(c) + 0xFEE0) for c in tid),
    }[form]
    env = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": admin_token}
    for args in (
        ("tournament", "cancel", written),
        ("tournament", "disqualify", tid, written, "--reason", "x"),
        ("integrity", written),
        ("leaderboard", "rebuild", written),
        ("schedule", "stop", written),
        ("verify", written),
    ):
        done = spidertour(*args, **env)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "is not an id" in done.stderr, done.stderr
    assert api.tournament(tour["id"])["status"] == "scheduled"  # nothing was cancelled
