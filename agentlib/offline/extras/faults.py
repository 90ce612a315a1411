"""Fault injection: answer some requests with 429, 529 or 500, a few times or every time."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

ERROR_TYPES = {
    429: (
        "rate_limit_error",
        "Number of request tokens has exceeded your rate limit (offline fault).",
    ),
    500: ("api_error", "Internal server error (offline fault)."),
    529: ("overloaded_error", "Overloaded (offline fault)."),
}


@dataclass
class Fault:
    """Answer the next ``times`` requests (every request when ``times`` is None) with ``status``.

    ``retry_after`` (seconds) is sent as the ``retry-after`` header, which the SDK honours
    between its retries; tests use a small value to stay fast.
    """

    status: int
    times: int | None = 1
    retry_after: float | None = None
    served: int = field(default=0, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.status not in ERROR_TYPES:
            raise ValueError(f"status must be one of {sorted(ERROR_TYPES)}, not {self.status}")

    def take(self) -> tuple[int, dict[str, str], dict] | None:
        """The error to answer with now, or None once the fault has been served ``times`` times."""
        with self._lock:
            if self.times is not None and self.served >= self.times:
                return None
            self.served += 1
        kind, message = ERROR_TYPES[self.status]
        headers = {} if self.retry_after is None else {"retry-after": f"{self.retry_after:g}"}
        return self.status, headers, {"type": kind, "message": message}


def rate_limited(times: int | None = 1, retry_after: float = 1.0) -> Fault:
    """429 rate_limit_error with a retry-after header."""
    return Fault(429, times, retry_after)


def overloaded(times: int | None = 1, retry_after: float | None = None) -> Fault:
    """529 overloaded_error, as the API sends when it is busy."""
    return Fault(529, times, retry_after)


def server_error(times: int | None = 1, retry_after: float | None = None) -> Fault:
    """500 api_error."""
    return Fault(500, times, retry_after)
