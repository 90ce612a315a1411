"""The offline server under load, each figure next to the bound it should respect.

python benchmarks/bench_server.py [--clients 50] [--rounds 5] [--idle 3000] [--large 8]

- burst: N requests at once, with a listen backlog of 5 against ours
- idle: N connections opened and left idle: the server's threads and memory, how many it refused
- trickle: a request head sent one byte every 2 s: how long the server keeps the connection
- large: N requests of 32 MB at once: the server's peak memory, how many it answered

The server runs in a child process, so its threads and peak memory are its own (/proc, Linux).
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from agentlib.offline import OFFLINE_MODEL
from agentlib.offline.extras import server as server_module
from agentlib.offline.extras.asgi import BODY_BUDGET_BYTES
from agentlib.offline.simulator import MAX_REQUEST_BYTES

HEADERS = {
    "content-type": "application/json",
    "x-api-key": "any",
    "anthropic-version": "2023-06-01",
}
ASK = json.dumps(
    {"model": OFFLINE_MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
)
SERVE = """
import sys
from agentlib.offline import Offline
from agentlib.offline.extras import server
from agentlib.offline.fallback import Fallback
server.BACKLOG, server.REQUEST_DEADLINE_S = int(sys.argv[1]), float(sys.argv[2])
running = server.make_server(Offline([Fallback()]))
print(running.server_address[1], flush=True)
running.serve_forever()
"""


class Child:
    """The server in a child process: its port, its threads and its peak memory."""

    def __init__(self, backlog: int = server_module.BACKLOG, deadline: float = 30) -> None:
        command = [sys.executable, "-c", SERVE, str(backlog), str(deadline)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        self.address = ("127.0.0.1", int(self.process.stdout.readline()))

    def status(self, field: str) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise KeyError(field)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def ask(address, body: bytes | str = ASK, timeout: float = 30) -> int | str:
    """One request; its status, or the name of the error that ended it."""
    try:
        conn = http.client.HTTPConnection(*address, timeout=timeout)
        conn.request("POST", "/v1/messages", body, HEADERS)
        status = conn.getresponse().status
        conn.close()
        return status
    except OSError as exc:  # reset, refused, timed out
        return type(exc).__name__


def together(count: int, job) -> list:
    """Run ``job()`` ``count`` times at once; the results."""
    start = threading.Barrier(count)
    results: list = []

    def one() -> None:
        start.wait()
        results.append(job())

    workers = [threading.Thread(target=one) for _ in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results


def burst(clients: int, rounds: int) -> None:
    for backlog in (5, server_module.BACKLOG):
        answered, slowest, failed = 0, [], []
        for _ in range(rounds):
            child = Child(backlog)
            began = time.perf_counter()
            results = together(clients, lambda child=child: ask(child.address))
            slowest.append(time.perf_counter() - began)
            child.stop()
            answered += results.count(200)
            failed += [r for r in results if r != 200]
        print(
            f"burst, backlog {backlog:4}: {answered}/{clients * rounds} answered, {len(failed)} "
            f"failed {sorted(set(map(str, failed)))}, burst took median "
            f"{statistics.median(slowest):.2f} s, worst {max(slowest):.2f} s"
        )


def idle(count: int) -> None:
    child = Child()
    threads_before = child.status("Threads")
    sockets = [socket.create_connection(child.address, timeout=10) for _ in range(count)]
    time.sleep(1)
    refused = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            refused += sock.recv(100).startswith(b"HTTP/1.1 529")
        except BlockingIOError:
            pass  # still open and idle
    threads, rss = child.status("Threads"), child.status("VmRSS")
    still = ask(child.address)
    for sock in sockets:
        sock.close()
    child.stop()
    print(
        f"idle: {count} connections: server threads {threads_before} -> {threads}, "
        f"memory {rss / 1024:.0f} MB, {refused} refused with 529 (cap "
        f"{server_module.CONNECTION_CAP}); a request meanwhile: {still}"
    )


def trickle(interval: float = 2.0) -> None:
    deadline = 10
    child = Child(deadline=deadline)
    head = f"POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: {len(ASK)}\r\n"
    sock = socket.create_connection(child.address, timeout=interval)
    began, answer = time.perf_counter(), b""
    for byte in head.encode():
        try:
            sock.sendall(bytes([byte]))
            answer = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            break
        if answer:
            break
    held = time.perf_counter() - began
    sock.close()
    child.stop()
    status = answer.split(b"\r\n")[0].decode() or "closed"
    print(
        f"trickle: one head byte every {interval:g} s was held {held:.1f} s "
        f"(deadline {deadline} s), then: {status}"
    )


def large(count: int) -> None:
    child = Child()
    rss_before = child.status("VmRSS")
    body = (ASK + " " * (MAX_REQUEST_BYTES - len(ASK))).encode()  # 32 MB, valid JSON
    results = together(count, lambda: ask(child.address, body, timeout=120))
    peak = child.status("VmHWM")
    child.stop()
    print(
        f"large: {count} requests of 32 MB at once: {results.count(200)} answered, other "
        f"{[r for r in results if r != 200]}; server memory {rss_before / 1024:.0f} MB idle, "
        f"peak {peak / 1024:.0f} MB (bodies held at once: {BODY_BUDGET_BYTES >> 20} MB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--idle", type=int, default=3000)
    parser.add_argument("--large", type=int, default=8)
    args = parser.parse_args()
    burst(args.clients, args.rounds)
    idle(args.idle)
    trickle()
    large(args.large)


if __name__ == "__main__":
    main()
