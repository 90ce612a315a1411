"""The offline server under a burst: N requests at once, with the stdlib's backlog of 5 and with ours.

python benchmarks/bench_server.py [--clients 50] [--rounds 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import threading
import time

from agentlib.offline import OFFLINE_MODEL, Offline
from agentlib.offline.extras import server as server_module
from agentlib.offline.fallback import Fallback

HEADERS = {
    "content-type": "application/json",
    "x-api-key": "any",
    "anthropic-version": "2023-06-01",
}
ASK = json.dumps(
    {"model": OFFLINE_MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
)


def burst(backlog: int, clients: int) -> tuple[int, list[float], list[str]]:
    """(answered, seconds per request, errors) for ``clients`` requests started together."""
    server_module.OfflineHTTPServer.request_queue_size = backlog
    server = server_module.serve_in_thread(Offline([Fallback()]))
    host, port = server.server_address[:2]
    start = threading.Barrier(clients)
    times, errors, answered = [], [], []

    def one() -> None:
        start.wait()
        began = time.perf_counter()
        try:
            conn = http.client.HTTPConnection(host, port, timeout=30)
            conn.request("POST", "/v1/messages", ASK, HEADERS)
            answered.append(conn.getresponse().status)
            conn.close()
        except OSError as exc:  # reset, refused, timed out
            errors.append(type(exc).__name__)
        times.append(time.perf_counter() - began)

    workers = [threading.Thread(target=one) for _ in range(clients)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    server.shutdown()
    server.server_close()
    return answered.count(200), times, errors


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ours = server_module.BACKLOG
    for backlog in (5, ours):
        ok, slowest, failed = 0, [], []
        for _ in range(args.rounds):
            answered, times, errors = burst(backlog, args.clients)
            ok += answered
            slowest.append(max(times))
            failed += errors
        total = args.clients * args.rounds
        print(
            f"backlog {backlog:4}: {ok}/{total} answered, {len(failed)} failed {sorted(set(failed))},"
            f" slowest request per burst: median {statistics.median(slowest):.2f} s,"
            f" worst {max(slowest):.2f} s"
        )
    server_module.OfflineHTTPServer.request_queue_size = ours


if __name__ == "__main__":
    main()
