"""The offline Messages API: validates each request, asks the policies for a reply, answers as the API does."""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import anthropic
import httpx2

from agentlib.offline.errors import OfflineError
from agentlib.offline.extras.faults import Fault
from agentlib.offline.extras.sse import message_events
from agentlib.offline.fallback import Fallback
from agentlib.offline.playbook import Playbook
from agentlib.offline.playbook.context import check_surface
from agentlib.offline.script import Reply
from agentlib.offline.usage import fit_to_budget, input_tokens
from agentlib.offline.validate import InvalidRequest, check_headers, parse_body, validate_request

OFFLINE_MODEL = "agentlib-offline"
# The live Messages API refuses larger bodies with 413 request_too_large (its errors page).
MAX_REQUEST_BYTES = 32 * 1024 * 1024
# The most output tokens the offline model allows per reply (max_tokens above it is refused).
OFFLINE_OUTPUT_LIMIT = 64000


class Policy(Protocol):
    """Decides the model's turn: a Reply, or None to let the next policy answer.

    ``surface`` is where the reply will be read (one of SURFACES: "notebook", "repl" or "http"),
    as the transport or the server that received the request says; most policies ignore it.
    """

    def answer(self, request: dict[str, Any], surface: str) -> Reply | None: ...


@dataclass
class HTTPAnswer:
    """Status, headers and body bytes: what the transport and the server send back."""

    status: int
    headers: dict[str, str]
    body: bytes


def _json_answer(status: int, payload: Any, headers: dict[str, str] | None = None) -> HTTPAnswer:
    request_id = f"req_offline_{uuid.uuid4().hex[:20]}"
    if isinstance(payload, dict) and payload.get("type") == "error":
        payload = {**payload, "request_id": request_id}
    all_headers = {"content-type": "application/json", "request-id": request_id, **(headers or {})}
    # a lone surrogate (a JSON "\\ud800" escape the request sent) stays an escape, not an error
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8", "backslashreplace")
    return HTTPAnswer(status, all_headers, body)


def error_answer(status: int, kind: str, message: str, headers: dict | None = None) -> HTTPAnswer:
    """An answer in the API's error shape, so the SDK raises the matching exception."""
    return _json_answer(
        status, {"type": "error", "error": {"type": kind, "message": message}}, headers
    )


def too_large_answer(size: int | None = None) -> HTTPAnswer:
    """The 413 the live API gives a body over MAX_REQUEST_BYTES (``size`` if known, for the message)."""
    got = "" if size is None else f" ({size} bytes)"
    return error_answer(
        413,
        "request_too_large",
        f"Request exceeds the maximum allowed number of bytes{got}: "
        f"the limit is {MAX_REQUEST_BYTES} bytes (32 MB).",
    )


class Offline:
    """The offline model: policies decide, everything around them behaves like the API."""

    def __init__(
        self,
        policies: Iterable[Policy | Callable[[dict], Reply | None]] | None = None,
        *,
        faults: Iterable[Fault] = (),
        model: str = OFFLINE_MODEL,
    ) -> None:
        self.policies = [Playbook(), Fallback()] if policies is None else list(policies)
        self.faults = list(faults)
        self.model = model
        self.requests: list[Any] = []  # every request body received, valid or not, in order
        self._lock = threading.Lock()

    @property
    def models(self) -> dict[str, int]:
        """The model ids this offline API accepts, each with its output limit (max_tokens)."""
        return {self.model: OFFLINE_OUTPUT_LIMIT}

    def model_entry(self, model_id: str) -> dict[str, Any]:
        """One model as the models endpoint describes it."""
        return {
            "type": "model",
            "id": model_id,
            "display_name": "agentlib offline model",
            "created_at": "1970-01-01T00:00:00Z",
        }

    def handle(
        self,
        method: str,
        path: str,
        body: bytes | bytearray,
        headers: Mapping[str, str] | None = None,
        *,
        surface: str = "notebook",
    ) -> HTTPAnswer:
        """Answer one HTTP request to the Messages API (the transport and the server call this).

        ``headers`` are checked as the API checks them; None skips that check. ``surface`` is
        where the reply will be read, passed on to the policies.
        """
        path = path.rstrip("/")
        if len(body) > MAX_REQUEST_BYTES:
            return too_large_answer(len(body))
        if method == "GET" and (path == "/v1/models" or path.startswith("/v1/models/")):
            return self._models_answer(path.removeprefix("/v1/models").lstrip("/"))
        if method != "POST" or path not in ("/v1/messages", "/v1/messages/count_tokens"):
            return error_answer(404, "not_found_error", f"Not found: {method} {path}")
        for fault in self.faults:
            taken = fault.take()
            if taken:
                status, fault_headers, error = taken
                return error_answer(status, error["type"], error["message"], fault_headers)
        try:
            if headers is not None:
                check_headers(headers)
            request = parse_body(body)
            with self._lock:
                self.requests.append(request)
            if path.endswith("count_tokens") and isinstance(request, dict):
                request = {"max_tokens": 1, **request}
            validate_request(request, self.models)
        except InvalidRequest as err:
            message = str(err)
            if err.rule == "model-known":
                message += f" (this offline API serves: {', '.join(self.models)})"
            return error_answer(err.status, err.kind, message)
        if path.endswith("count_tokens"):
            return _json_answer(200, {"input_tokens": input_tokens(request)})
        message = self.reply_to(request, surface)
        if request.get("stream"):
            headers = {"content-type": "text/event-stream", "request-id": "req_offline_stream"}
            return HTTPAnswer(200, headers, message_events(message))
        return _json_answer(200, message)

    def _models_answer(self, model_id: str) -> HTTPAnswer:
        if model_id:
            if model_id not in self.models:
                return error_answer(
                    404,
                    "not_found_error",
                    f"model: {model_id} (this offline API serves: {', '.join(self.models)})",
                )
            return _json_answer(200, self.model_entry(model_id))
        ids = list(self.models)
        payload = {
            "data": [self.model_entry(model_id) for model_id in ids],
            "has_more": False,
            "first_id": ids[0],
            "last_id": ids[-1],
        }
        return _json_answer(200, payload)

    def reply_to(self, request: dict[str, Any], surface: str = "notebook") -> dict[str, Any]:
        """The assistant message (API JSON) for a valid request: first policy that answers wins."""
        check_surface(surface)
        for policy in self.policies:
            # a plain function is a policy of the request alone
            answer = (
                policy.answer(request, surface) if hasattr(policy, "answer") else policy(request)
            )
            if answer is not None:
                return self._message(request, answer)
        raise OfflineError(
            "No offline policy answered this request. Add Fallback() as the last policy, "
            "e.g. Offline([Script(...), Fallback()])."
        )

    def _message(self, request: dict[str, Any], answer: Reply) -> dict[str, Any]:
        # ids derive from the conversation so the same run gives the same ids (stable notebooks)
        seed = hashlib.sha256(json.dumps(request["messages"], sort_keys=True).encode()).hexdigest()
        content = []
        for j, block in enumerate(answer.content):
            block = dict(block)
            if block["type"] == "tool_use" and not block.get("id"):
                block["id"] = (
                    "toolu_offline_" + hashlib.sha256(f"{seed}{j}".encode()).hexdigest()[:16]
                )
            content.append(block)
        content, output_tokens, was_cut = fit_to_budget(content, request["max_tokens"])
        return {
            "id": f"msg_offline_{seed[:16]}",
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": content,
            "stop_reason": "max_tokens" if was_cut else answer.stop_reason,
            "stop_sequence": None,
            # estimates (about 4 characters per token), labelled so wherever usage is shown
            "usage": {
                "input_tokens": input_tokens(request),
                "output_tokens": output_tokens,
                "estimated": True,
            },
        }

    def transport(self, surface: str = "notebook") -> httpx2.BaseTransport:
        """An httpx2 transport serving this model in-process (give it to anthropic.Anthropic).

        ``surface``: where its replies are read, "notebook" or "repl" (SURFACES).
        """
        return OfflineTransport(self, surface)

    def client(self, *, max_retries: int = 2, surface: str = "notebook") -> anthropic.Anthropic:
        """A real anthropic.Anthropic whose requests this offline model answers."""
        return client_for(self.transport(surface), max_retries=max_retries)


# Not a secret: the SDK insists on some credential, and the offline model ignores it.
PLACEHOLDER_KEY = "offline-no-key-needed"
# .invalid is reserved (RFC 2606): if a request ever escaped the transport it could not resolve.
OFFLINE_BASE_URL = "http://offline.agentlib.invalid"


class OfflineTransport(httpx2.BaseTransport):
    """Hands each HTTP request to an Offline simulator instead of the network."""

    def __init__(self, offline: Offline, surface: str = "notebook") -> None:
        self.offline = offline
        self.surface = check_surface(surface)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Answer one request in-process."""
        # the size limit is checked before the body is read, as the server does
        size = int(request.headers.get("content-length") or 0)
        if size > MAX_REQUEST_BYTES:
            answer = too_large_answer(size)
        else:
            path, body = request.url.path, request.read()
            answer = self.offline.handle(
                request.method, path, body, request.headers, surface=self.surface
            )
        return httpx2.Response(answer.status, headers=answer.headers, content=answer.body)


def client_for(transport: httpx2.BaseTransport, *, max_retries: int = 2) -> anthropic.Anthropic:
    """A real anthropic.Anthropic that sends its requests through ``transport``."""
    return anthropic.Anthropic(
        api_key=PLACEHOLDER_KEY,
        base_url=OFFLINE_BASE_URL,
        http_client=httpx2.Client(transport=transport),
        max_retries=max_retries,
    )
