"""Fixtures shared by the offline-API tests: the same request, in-process and over loopback."""

from __future__ import annotations

import anthropic
import pytest

from agentlib.offline import Fallback, Offline
from agentlib.offline.extras.server import serve_in_thread


@pytest.fixture(scope="module")
def loopback():
    """The offline model served on 127.0.0.1; its base URL."""
    server = serve_in_thread(Offline([Fallback()]))
    yield "http://{}:{}".format(*server.server_address[:2])
    server.shutdown()
    server.server_close()


@pytest.fixture(params=["in-process", "loopback"])
def client(request, loopback):
    """A real SDK client of the offline model: once in-process, once over loopback HTTP."""
    if request.param == "in-process":
        return Offline([Fallback()]).client(max_retries=0)
    return anthropic.Anthropic(base_url=loopback, api_key="any", max_retries=0)
