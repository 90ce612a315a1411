"""``python -m agentlib.offline serve --port N``: serve the offline model on 127.0.0.1."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m agentlib.offline")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the offline model over HTTP on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8765, help="port to listen on (0: any free)")
    args = parser.parse_args(argv)
    try:
        from agentlib.offline.extras.server import PortInUse, describe, make_server
    except ImportError as missing:  # the server is an extra: say how to install it, in one line
        print(f"agentlib: {missing}", file=sys.stderr)
        return 2
    try:
        server = make_server(port=args.port)
    except PortInUse as busy:
        print(f"agentlib: {busy}", file=sys.stderr)
        return 1
    print(describe(server), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
