"""The web client's files answered from memory, and a browser's revalidation answered 304.

The client is plain files served by Litestar's static files router with ``Cache-Control:
no-cache``: a browser keeps a copy but asks again on every page load, with the ``ETag`` it was
given (``If-None-Match``). The router reads the file from disk on every request, in worker threads,
and sends it whole even when the browser's copy is current (about 2 ms of the server's CPU a file;
a page load asks for 36). This is the router's ``before_request`` hook: a file is kept in memory
with an ETag of its content, looked at again on disk only for its modification time and size (an
edited file is served at once, as before), answered from memory, and with 304 and no body to a
browser whose copy is current. A path that names no file of the client goes on to the router, which
answers it as before (404).
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path
from typing import Any

from litestar import Request, Response
from litestar.status_codes import HTTP_304_NOT_MODIFIED

INDEX = "index.html"  # what "/" serves (the router's html_mode)


@dataclass(frozen=True, slots=True)
class ClientFile:
    body: bytes
    media_type: str
    etag: str  # quoted, as the header carries it
    last_modified: str
    mtime_ns: int
    size: int


class ClientFiles:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.files: dict[str, ClientFile] = {}

    def get(self, name: str) -> ClientFile | None:
        """The file at ``name`` (relative, "/"-separated) inside the root, as it is on disk now;
        None for anything else (a directory, a missing file, a way out of the root)."""
        parts = name.split("/")
        if not name or any(part in ("", ".", "..") or "\\" in part or "\0" in part for part in parts):
            return None
        path = self.root.joinpath(*parts)
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return None
        known = self.files.get(name)
        if known is not None and known.mtime_ns == info.st_mtime_ns and known.size == info.st_size:
            return known
        try:  # new or changed: read once, and only if it really lies inside the root
            if not path.is_file() or not path.resolve().is_relative_to(self.root):
                return None
            body = path.read_bytes()
        except OSError:
            return None
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        found = ClientFile(
            body=body,
            media_type=media_type,
            etag='"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"',
            last_modified=formatdate(info.st_mtime, usegmt=True),
            mtime_ns=info.st_mtime_ns,
            size=info.st_size,
        )
        self.files[name] = found
        return found

    async def before_request(self, request: Request[Any, Any, Any]) -> Response[bytes] | None:
        """Answer a GET for a file of the client from memory (304 when the browser's copy is
        current); anything else goes on to the router (None)."""
        if request.method != "GET":
            return None
        name = str(request.path_params.get("file_path", "/")).lstrip("/") or INDEX
        found = self.get(name)
        if found is None:
            return None
        headers = {"cache-control": "no-cache", "etag": found.etag, "last-modified": found.last_modified}
        asked = request.headers.get("if-none-match")
        if asked is not None and (asked.strip() == "*" or found.etag in (tag.strip() for tag in asked.split(","))):
            return Response(b"", status_code=HTTP_304_NOT_MODIFIED, headers=headers)
        return Response(found.body, media_type=found.media_type, headers=headers)
