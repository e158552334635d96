"""The web client's files: answered from memory with an ETag of their content, 304 to a browser
whose copy is current, an edited file served at once, nothing outside the client's folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spidertour.server.app import STATIC_DIR
from spidertour.server.lib.client_files import ClientFiles
from tests.client import Api


def test_a_file_is_kept_and_read_again_once_edited(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    script = tmp_path / "js" / "main.js"
    script.write_text("export const a = 1;\n")
    files = ClientFiles(tmp_path)
    first = files.get("js/main.js")
    assert first is not None and first.body == b"export const a = 1;\n"
    assert first.media_type == "text/javascript" and first.etag.startswith('"')
    assert files.get("js/main.js") is first  # unchanged on disk: the same, not read again
    script.write_text("export const a = 22;\n")
    os.utime(script, ns=(first.mtime_ns + 10**9, first.mtime_ns + 10**9))
    second = files.get("js/main.js")
    assert second is not None and second.body == b"export const a = 22;\n"
    assert second.etag != first.etag


@pytest.mark.parametrize(
    "name",
    [
        "",
        "js",
        "missing.js",
        "../secret.txt",
        "js/../../secret.txt",
        "js//main.js",
        "./js/main.js",
        "js\\main.js",
        "a\0b",
    ],
)
def test_nothing_but_a_file_inside_the_folder_is_answered(tmp_path: Path, name: str) -> None:
    root = tmp_path / "client"
    (root / "js").mkdir(parents=True)
    (root / "js" / "main.js").write_text("1")
    (tmp_path / "secret.txt").write_text("not for the web")
    assert ClientFiles(root).get(name) is None


def test_a_link_out_of_the_folder_is_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "client"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("not for the web")
    (root / "out.txt").symlink_to(tmp_path / "secret.txt")
    assert ClientFiles(root).get("out.txt") is None


def test_the_server_answers_a_current_copy_with_304(api: Api) -> None:
    on_disk = (STATIC_DIR / "js" / "main.js").read_bytes()
    page = api.http.get("/js/main.js")
    assert page.status_code == 200 and page.content == on_disk
    assert page.headers["content-type"] == "text/javascript; charset=utf-8"
    assert page.headers["cache-control"] == "no-cache"
    etag = page.headers["etag"]
    for asked in (etag, f'"stale", {etag}', "*"):
        again = api.http.get("/js/main.js", headers={"if-none-match": asked})
        assert again.status_code == 304 and again.content == b"", asked
        assert again.headers["etag"] == etag
    stale = api.http.get("/js/main.js", headers={"if-none-match": '"stale"'})
    assert stale.status_code == 200 and stale.content == on_disk
    assert api.http.get("/").content == (STATIC_DIR / "index.html").read_bytes()
    head = api.http.head("/css/app.css")
    assert head.status_code == 200 and head.content == b""
    assert api.http.get("/js/nothing-here.js").status_code == 404
