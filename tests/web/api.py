"""HTTP calls the browser tests make to the server beside the page.

httpx gives up after 5 s by default; on a busy two-core CI machine one request can wait
longer than that behind AI workers, which made a test fail on a timing rather than on
behaviour. These calls wait long enough that only a hung server fails them."""

from __future__ import annotations

from typing import Any

import httpx

PATIENCE = httpx.Timeout(60.0, connect=10.0)


def request(method: str, url: str, **kwargs: Any) -> httpx.Response:
    kwargs.setdefault("timeout", PATIENCE)
    return httpx.request(method, url, **kwargs)


def get(url: str, **kwargs: Any) -> httpx.Response:
    return request("GET", url, **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    return request("POST", url, **kwargs)
