"""The OpenAPI document and its browsable page, served entirely by this server.

The page is Swagger UI from the ``swagger-ui-py`` package's files, served under
``/schema/assets/``: no script from another site, no inline script (the page passes the
Content-Security-Policy of ``server.operations.security``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import swagger_ui
from litestar import Request, Response, get
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

from .errors import ErrorBody

SWAGGER_DIR = Path(swagger_ui.__file__).resolve().parent / "static"
ASSETS = "/schema/assets"

ADMIN: list[dict[str, list[str]]] = [{"admin": []}]
ORGANISER: list[dict[str, list[str]]] = [{"admin": []}, {"organiser": []}]
PLAYER: list[dict[str, list[str]]] = [{"player": []}]

ERRORS = {
    400: "The request is malformed or breaks a rule: `detail` (and `extra`) say which",
    401: "No token, or a token the server does not know",
    403: "The admin or an organiser's token or session is needed, it is not the caller's to manage, or not allowed now",
    404: "No such tournament, entry, schedule, club, member or organiser",
    409: "The action conflicts with the state: the tournament or entry is past that point",
    413: "The body is larger than the route takes",
    415: "The body is not sent as `Content-Type: application/json` (or `text/csv` where a route takes it)",
    422: "A certified deal was asked for and the solver won none of the deals it tried",
    429: "Too many registrations or joins from this client address, or failed sign-ins: wait `Retry-After` seconds",
    503: (
        "PostgreSQL or Redis is out of reach, or too busy to check a limit, for the moment: try again"
        " after `Retry-After` seconds (any route may answer it)"
    ),
}


def errors(*codes: int) -> dict[int, ResponseSpec]:
    """OpenAPI responses for these error codes and 503 (which any route may answer): the JSON error
    body of every HTTP error."""
    return {code: ResponseSpec(ErrorBody, description=ERRORS[code]) for code in sorted({*codes, 503})}


INIT_JS = """// Swagger UI on this server's own OpenAPI document.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: document.body.dataset.spec,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "BaseLayout",
  });
});
"""


class LocalSwagger(SwaggerRenderPlugin):
    def __init__(self) -> None:
        super().__init__(
            path="/swagger",
            js_url=f"{ASSETS}/swagger-ui-bundle.js",
            css_url=f"{ASSETS}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS}/swagger-ui-standalone-preset.js",
            favicon=f"<link rel='icon' type='image/png' href='{ASSETS}/favicon-32x32.png'>",
        )

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        title = openapi_schema["info"]["title"]
        return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} API</title>
  {self.favicon}
  <link rel="stylesheet" href="{self.css_url}">
</head>
<body data-spec="{self.get_openapi_json_route(request)}">
  <div id="swagger-ui"></div>
  <script src="{self.js_url}"></script>
  <script src="{self.standalone_preset_js_url}"></script>
  <script src="{ASSETS}/init.js"></script>
</body>
</html>
""".encode()


@get(f"{ASSETS}/init.js", media_type="text/javascript", include_in_schema=False)
async def swagger_init() -> Response[str]:
    return Response(INIT_JS, media_type="text/javascript")


ASSET_ROUTES: list[ControllerRouterHandler] = [
    swagger_init,
    create_static_files_router(path=ASSETS, directories=[SWAGGER_DIR], name="swagger-assets", include_in_schema=False),
]

OPENAPI_CONFIG = OpenAPIConfig(
    title="spidertour",
    version="0.1.0",
    description="Tournament server for timed Spider solitaire. The websockets are described in docs/protocol.md.",
    path="/schema",
    render_plugins=[LocalSwagger()],
    components=Components(
        security_schemes={
            "admin": SecurityScheme(
                type="http", scheme="bearer", description="The admin token (ADMIN_TOKEN, or printed at start)"
            ),
            "organiser": SecurityScheme(
                type="http",
                scheme="bearer",
                description="An organiser's token, returned once by POST /api/organisers, or a session token of "
                "an account that is an organiser",
            ),
            "player": SecurityScheme(
                type="http", scheme="bearer", description="A player's token, returned once by POST /api/players"
            ),
        }
    ),
)
