"""The server's edge, before any route runs: bodies bounded while they arrive, cross-site
posts refused, HEAD answered as GET is, security headers on every answer, and no secret in a
log line.

Links are passwords (a GM's or a power's token sits in the URL path), so the pages forbid
framing, inline script and sending the URL as a Referer, and the access log shows `***` in
place of a token. The middleware classes are plain ASGI: they see a request before FastAPI
reads its body.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 4 * 1024 * 1024  # bytes of one request: a 2 MB variant file, JSON-escaped
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# pages: nothing but the server's own files; no inline script or style, no framing
PAGE_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# a board opened on its own: its inline style attributes, never a script
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
HEADERS = [(b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer"),
           (b"x-content-type-options", b"nosniff")]

# a token in a path: /gm/TOKEN, /play/TOKEN, /api/gm/TOKEN/..., /api/play/TOKEN/...
TOKEN_IN_PATH = re.compile(r"(/(?:gm|play|mail/unsubscribe)/)[^/?#\s\"]+")
# and anything as long as a token anywhere else (a doubled slash, /Play/, a query, a token
# pasted into another segment): tokens are 32 URL-safe characters or "p" and 40 hex digits,
# and no path of the host has a segment half as long
TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{24,}")


class BodyLimit:
    """Refuse a request whose body exceeds `limit` bytes with a 413: at once when its
    Content-Length says so, else as soon as the streamed bytes pass it — never after
    reading it whole."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await _plain(scope, send, 400, "Content-Length is not a number")
                return
            if int(declared) > self.limit:
                await _plain(scope, send, 413, self._too_large())
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise HTTPException(413, self._too_large())
            return message

        await self.app(scope, counted, send)

    def _too_large(self) -> str:
        return f"the request is larger than {self.limit // (1024 * 1024)} MB"


class CrossSiteGuard:
    """Refuse a state-changing request a browser sent from another site (a form on an
    attacker's page posting to this server): by Sec-Fetch-Site when the browser sends it,
    else by Origin, else by Referer. Clients that send none of them (curl, scripts) are not
    browsers a page can drive, and pass. A body under /api must be declared JSON (415):
    no page of another site can make a browser send that type without CORS, which this
    server never allows."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE:
            if _cross_site(scope):
                await _plain(scope, send, 403, "a request from another site is refused: "
                             "send forms from this server's own pages")
                return
            if scope.get("path", "").startswith("/api") and _has_body(scope) and not (
                    _header(scope, b"content-type") or "").lower().startswith(
                    "application/json"):
                # a browser's form or no-cors fetch cannot send this type to another site
                await _plain(scope, send, 415, "the API takes a JSON body: send "
                             "Content-Type: application/json")
                return
        await self.app(scope, receive, send)


def _has_body(scope: Scope) -> bool:
    length = _header(scope, b"content-length")
    return (length is not None and length.strip() not in ("", "0")) or (
        _header(scope, b"transfer-encoding") is not None)


def _cross_site(scope: Scope) -> bool:
    fetch_site = _header(scope, b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site.lower() not in ("same-origin", "none")
    host = (_header(scope, b"host") or "").lower()
    for name in (b"origin", b"referer"):
        value = _header(scope, name)
        if value is not None:
            if value == "null":
                return True
            return urlsplit(value).netloc.lower() != host
    return False


class HeadAsGet:
    """HEAD answered wherever GET is (uptime checks and link previews ask it; FastAPI's GET
    routes answer only GET): the request goes on as a GET, and the answer keeps its status
    and headers (its Content-Length too) without the body. The live streams, which never
    end, are left out (405)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope.get("method") != "HEAD"
                or scope.get("path", "").endswith("/live")):
            await self.app(scope, receive, send)
            return
        ended = False

        async def without_body(message: Message) -> None:
            nonlocal ended
            if message["type"] == "http.response.body":
                if ended:
                    return
                ended = not message.get("more_body", False)
                message = {"type": "http.response.body", "body": b"", "more_body": not ended}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class SecurityHeaders:
    """Every answer: a Content-Security-Policy (pages: the server's own files only, no inline
    script; an SVG board: no script at all), no framing, no Referer, no sniffing. `relaxed`
    paths (the API docs page, when turned on) get `relaxed_csp` instead."""

    def __init__(self, app: ASGIApp, relaxed: dict[str, str] | None = None) -> None:
        self.app, self.relaxed = app, relaxed or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"content-security-policy"]
                kind = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                csp = self.relaxed.get(path) or (
                    SVG_CSP if kind.startswith(b"image/svg") else PAGE_CSP)
                headers.append((b"content-security-policy", csp.encode()))
                names = {k.lower() for k, _v in headers}
                headers += [(k, v) for k, v in HEADERS if k not in names]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k.lower() == name:
            return v.decode("latin-1")
    return None


async def _plain(scope: Scope, send: Send, status: int, detail: str) -> None:
    """An answer from the edge itself: JSON under /api, a short HTML page elsewhere."""
    if scope.get("path", "").startswith("/api"):
        body, kind = json.dumps({"detail": detail}).encode(), b"application/json"
    else:
        body = (f"<!doctype html><title>Not done</title><h1>Not done</h1>"
                f"<p class=\"error\" id=\"error\">{detail}</p>").encode()
        kind = b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def refusal(exc: Exception) -> tuple[int, str] | None:
    """The 4xx answer for an error of the database that bad input causes (PostgreSQL
    refuses a NUL character in text, or a number out of its range), else None."""
    from sqlalchemy.exc import DataError

    if isinstance(exc, DataError):
        return 400, ("the request holds a value the database cannot store (a NUL "
                     "character in a text, or a number out of range)")
    return None


# ---- logs ------------------------------------------------------------------------------------


def mask_tokens(text: str) -> str:
    """`text` with every token of a link path, and every word as long as a token, replaced
    by ***."""
    return TOKEN_LIKE.sub("***", TOKEN_IN_PATH.sub(r"\1***", text))


class MaskTokens(logging.Filter):
    """A log filter: the tokens in link paths of a record's message and arguments become
    *** (uvicorn's access log passes the path as an argument)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask_tokens(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(mask_tokens(a) if isinstance(a, str) else a
                                for a in record.args)
        return True


def mask_logs(names: tuple[str, ...] = ("uvicorn.access", "uvicorn.error", "polydip.host")
              ) -> None:
    """Put the token mask on these loggers (once each)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, MaskTokens) for f in logger.filters):
            logger.addFilter(MaskTokens())


def safe_url(url: str) -> str:
    """A database URL fit to print: its password as ***."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: show none of it
        return "(the --db URL)"


def scrub(text: str, secrets: list[str], mark: str = "***") -> str:
    """`text` with `mark` in place of each of `secrets` (passwords, server folders)."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, mark)
    return text


def url_secrets(url: str | None) -> list[str]:
    """What of a database URL must never be shown: the password, and the URL itself."""
    if not url:
        return []
    out = [url]
    try:
        from sqlalchemy.engine import make_url

        password = make_url(url).password
        if password:
            out.append(str(password))
    except Exception:
        pass
    return out
