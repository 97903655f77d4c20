"""The HTTP side of model downloads: which URLs are accepted, and how they are requested.

Only http and https URLs are fetched, also after redirects. Requests ask for
the raw bytes (no content encoding) and, when resuming, for a byte range.
Messages show URLs without credentials or query strings, which may hold tokens.
"""

from __future__ import annotations

import http.client
import re
import urllib.error
import urllib.request
from typing import IO, Any, cast
from urllib.parse import urlsplit

ALLOWED_SCHEMES = ("http", "https")
USER_AGENT = "lmsp-desktop/1.0"
_CONTENT_RANGE = re.compile(r"^\s*bytes\s+(?:(\d+)-(\d+)|\*)/(\d+|\*)\s*$", re.IGNORECASE)


def validate_download_url(url: str) -> str:
    """Returns ``url`` when it is an absolute http or https URL; raises ``ValueError`` otherwise.

    The HTTP layer calls this before accepting a download, to answer 400 with
    ``param`` ``source.url``.
    """
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        raise ValueError("the URL must start with http:// or https://")
    if not parts.hostname:
        raise ValueError("the URL must name a host")
    return url.strip()


def open_url(url: str, *, start: int, timeout_s: float) -> http.client.HTTPResponse:
    """Requests ``url`` from byte ``start`` on; raises ``urllib.error.HTTPError`` for 4xx/5xx.

    ``timeout_s`` bounds the connection and each read. Connection problems
    raise ``urllib.error.URLError`` or ``OSError``.
    """
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    if start:
        headers["Range"] = f"bytes={start}-"
    request = urllib.request.Request(validate_download_url(url), headers=headers)  # noqa: S310
    return cast(http.client.HTTPResponse, _build_opener().open(request, timeout=timeout_s))


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects only to http and https addresses."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        if urlsplit(newurl).scheme.lower() not in ALLOWED_SCHEMES:
            raise urllib.error.HTTPError(
                newurl, code, "redirected to an address that is not http or https", headers, fp
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _build_opener() -> urllib.request.OpenerDirector:
    """An opener for http and https only (the default one also opens files and FTP)."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(),
        _HttpOnlyRedirects(),
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener


def parse_content_range(value: str) -> tuple[int | None, int | None, int | None]:
    """Parses ``bytes first-last/total`` (or ``bytes */total``); missing parts are None."""
    match = _CONTENT_RANGE.match(value)
    if match is None:
        return None, None, None
    first, last, total = match.groups()
    return (
        int(first) if first is not None else None,
        int(last) if last is not None else None,
        int(total) if total is not None and total != "*" else None,
    )


def display_url(url: str) -> str:
    """The URL without credentials or query string, for messages."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"
