"""Extras around the offline model that the course does not need up front.

``faults``  inject 429 / 529 / 500 answers for lessons on retries
``sse``     the streaming (server-sent events) form of a reply
``replay``  record a real session and replay it offline, with drift detection
``asgi``    the simulator as an ASGI app (bounded memory, errors in the API's shape)
``server``  that app behind uvicorn on 127.0.0.1, for any Anthropic client (the server extra)
"""
