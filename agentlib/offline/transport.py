"""The offline model as an httpx2 transport, so a real anthropic.Anthropic talks to it."""

from __future__ import annotations

import anthropic
import httpx2

# Not a secret: the SDK insists on some credential, and the offline model ignores it.
PLACEHOLDER_KEY = "offline-no-key-needed"
# .invalid is reserved (RFC 2606): if a request ever escaped the transport it could not resolve.
OFFLINE_BASE_URL = "http://offline.agentlib.invalid"


class OfflineTransport(httpx2.BaseTransport):
    """Hands each HTTP request to an Offline simulator instead of the network."""

    def __init__(self, offline) -> None:
        self.offline = offline

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Answer one request in-process."""
        answer = self.offline.handle(request.method, request.url.path, request.read())
        return httpx2.Response(answer.status, headers=answer.headers, content=answer.body)


def client_for(transport: httpx2.BaseTransport, *, max_retries: int = 2) -> anthropic.Anthropic:
    """A real anthropic.Anthropic that sends its requests through ``transport``."""
    return anthropic.Anthropic(
        api_key=PLACEHOLDER_KEY,
        base_url=OFFLINE_BASE_URL,
        http_client=httpx2.Client(transport=transport),
        max_retries=max_retries,
    )
