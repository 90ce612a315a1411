"""connect(): a real Anthropic client configured from the environment and .env, or the offline model.

Precedence: a value in ``.env`` wins over the same variable in the environment, as in the
seed's ``load_dotenv(override=True)``: the project's file says what the project uses. Unlike
the seed, ``.env`` is read without copying it into ``os.environ``, so keys never reach the
environment of the commands the agent runs.
"""

from __future__ import annotations

import importlib.util
import os
import site
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError

if TYPE_CHECKING:  # the SDK loads when a client is made, so `import agentlib` stays light
    import anthropic

BACKENDS = ("auto", "offline", "anthropic")
SETTINGS = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "MODEL_ID",
    "AGENTLIB_BACKEND",
)
# Set by the course runner (python -m agentlib.course without --live). Read from the process
# environment only, never from .env, so no project file can turn a forced-offline run live.
FORCE_OFFLINE = "AGENTLIB_FORCE_OFFLINE"
SET_MODEL = (
    "MODEL_ID is not set. Put a line MODEL_ID=<model id> in .env (or export MODEL_ID), using a "
    "model your key can use; `python -m agentlib models` lists them."
)
# what connect() chose and how to undo it, after SET_MODEL: a stray .env (the seed's, say) with
# a key but no MODEL_ID otherwise stops an offline lesson or `python -m agentlib s02` with no clue
CHOSEN_BECAUSE = {
    "en": SET_MODEL + " The real API was chosen because {why}; to run offline instead: {offline}.",
    "zh": "没有设置 MODEL_ID。在 .env 里写一行 MODEL_ID=<模型 id>（或 export MODEL_ID），用你的 key "
    "能用的模型；`python -m agentlib models` 会列出它们。之所以选了真实的 API，是因为{why}；"
    "想离线运行：{offline}。",
}
STAY_OFFLINE = {"repl": "--backend offline", "notebook": 'BACKEND = "offline" (connect("offline"))'}
SET_KEY = (
    "No API key: put a line ANTHROPIC_API_KEY=<your key> in .env (or export it), or use the "
    'offline model with connect("offline").'
)


def read_settings(
    env_file: str | os.PathLike | None = ".env", *, lang: str = "en"
) -> dict[str, tuple[str, str]]:
    """The settings connect() uses, each as ``(value, where it came from)``; .env wins.

    ``env_file`` is looked for in the current folder, then in each parent (an absolute path is
    read as it is); None reads no file. ``lang="zh"`` names the environment in Chinese.
    """
    from dotenv import dotenv_values, find_dotenv

    environment = "环境变量" if lang == "zh" else "the environment"
    settings = {key: (os.environ[key], environment) for key in SETTINGS if os.environ.get(key)}
    found = find_dotenv(os.fspath(env_file), usecwd=True) if env_file is not None else ""
    if found:
        for key, value in dotenv_values(found).items():
            if key in SETTINGS and value:
                settings[key] = (value, found)
    return settings


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def next_start_problems(
    workspace: str | os.PathLike, env_file: str | os.PathLike | None = ".env"
) -> list[str]:
    """Ways a model working in ``workspace`` could change what the next start reads or imports.

    Commands run in the workspace, but Python and connect() run outside the sandbox: a ``.env``
    the model writes where connect() looks for one could send the key to the model's own
    listener, and a module it writes on Python's import path (``dotenv.py``) runs at the next
    start with the key and the user's rights. Empty when the workspace is safe for that.
    """
    root = Path(workspace).expanduser().resolve()
    problems = []
    if env_file is not None:
        name, here = Path(env_file), Path.cwd().resolve()
        # where read_settings() looks: the name itself, or under this folder and each parent
        looked = [name] if name.is_absolute() else [f / name for f in (here, *here.parents)]
        if any(_within(path.resolve(), root) for path in looked):
            problems.append(
                f"connect() reads {name} from {root} or a folder in it, so a model could write "
                "one there (ANTHROPIC_BASE_URL pointing at itself) for the next start to read"
            )
    entries = [*sys.path, *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    for entry in dict.fromkeys(Path(e or ".").resolve() for e in entries):
        if _within(entry, root):
            problems.append(
                f"{entry} is on Python's import path, so a module a model writes there "
                "(dotenv.py) would be imported by the next start, outside the sandbox"
            )
            break
        if root.parent == entry and _shadows_a_module(root):
            problems.append(
                f"{root.name!r} is a module Python imports, and {entry} is on its import "
                f"path: a {root.name}/__init__.py written there would be imported instead"
            )
            break
    return problems


def _shadows_a_module(root: Path) -> bool:
    """Whether a package written at ``root`` would be imported instead of a module Python has."""
    if not root.name.isidentifier():
        return False
    if root.name in sys.modules:
        return True
    try:
        spec = importlib.util.find_spec(root.name)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    if spec.origin in (None, "namespace"):  # a plain folder: matters only if it spans others
        return any(Path(p).resolve() != root for p in spec.submodule_search_locations or [])
    return True


def _choose(
    backend: str, settings: dict[str, tuple[str, str]], lang: str = "en"
) -> tuple[str, str]:
    """Which backend to use, and why, in words (``lang`` "zh": in Chinese)."""
    zh = lang == "zh"
    if backend == "auto" and "AGENTLIB_BACKEND" in settings:
        value, where = settings["AGENTLIB_BACKEND"]
        backend = value.strip().lower()
        why = (
            f"{where} 里的 AGENTLIB_BACKEND={value}"
            if zh
            else f"AGENTLIB_BACKEND={value} in {where}"
        )
    else:
        why = f"backend={backend!r}"
    if backend not in BACKENDS:
        raise ConfigError(
            f"Unknown backend {backend!r} ({why}); choose one of {', '.join(BACKENDS)}."
        )
    if backend != "auto":
        return backend, why
    for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):
        if key in settings and (key == "ANTHROPIC_API_KEY" or "ANTHROPIC_BASE_URL" not in settings):
            where = settings[key][1]
            return "anthropic", f"在 {where} 里找到了 {key}" if zh else f"{key} found in {where}"
    if zh:
        return "offline", "环境变量和 .env 里都没有 ANTHROPIC_API_KEY"
    return "offline", "no ANTHROPIC_API_KEY in the environment or .env"


def is_offline(model: str | None) -> bool:
    """Whether ``model`` is the offline model: the one answer, read from the id every reply carries.

    connect() decides which backend to use; after that the model id says it, in-process and over
    the loopback server alike (the offline model's ids contain "offline"; its token counts are
    estimates).
    """
    return bool(model) and "offline" in model.lower()


def anthropic_client(
    settings: dict[str, tuple[str, str]], *, max_retries: int = 2, http_client: Any = None
) -> anthropic.Anthropic:
    """A real client from the settings. Makes no network call."""
    value = {key: pair[0] for key, pair in settings.items()}
    base_url = value.get("ANTHROPIC_BASE_URL")
    # With a custom base URL (a proxy or compatible gateway) the seed drops ANTHROPIC_AUTH_TOKEN:
    # it is a bearer token for Anthropic's API, and without this the SDK would send it to the
    # other host whenever it is the only credential (with both set, SDK 2.x sends the key).
    auth_token = None if base_url else value.get("ANTHROPIC_AUTH_TOKEN")
    api_key = value.get("ANTHROPIC_API_KEY")
    if not api_key and not auth_token:
        dropped = " (ANTHROPIC_AUTH_TOKEN is ignored when ANTHROPIC_BASE_URL is set)"
        raise ConfigError(SET_KEY + (dropped if value.get("ANTHROPIC_AUTH_TOKEN") else ""))
    options: dict[str, Any] = {"max_retries": max_retries}
    if http_client is not None:
        options["http_client"] = http_client
    import anthropic

    return anthropic.Anthropic(api_key=api_key, auth_token=auth_token, base_url=base_url, **options)


def connect(
    backend: str = "auto",
    *,
    model: str | None = None,
    policies: tuple | list | None = None,
    env_file: str | os.PathLike | None = ".env",
    record: str | os.PathLike | None = None,
    max_retries: int = 2,
    quiet: bool = False,
    surface: str = "notebook",
    lang: str = "en",
) -> tuple[anthropic.Anthropic, str]:
    """``(client, model)`` for the chosen backend; prints one line saying which and why.

    ``backend``: "auto" (AGENTLIB_BACKEND, else the real API when a key is configured, else
    offline), "offline" or "anthropic". ``policies`` drive the offline model (default: the
    playbook, then the fallback); ``surface`` ("notebook" or "repl") is where they are read, so
    their advice fits. ``record`` saves a real session to a JSON cassette for replay. ``lang``
    "zh" says the line in Chinese.
    No network call is made here: ``check_connection(client, model)`` tries the connection.
    """
    settings = read_settings(env_file, lang=lang)
    zh = lang == "zh"
    choice, why = _choose(backend, settings, lang)
    if os.environ.get(FORCE_OFFLINE) and choice != "offline":  # asked for offline: nothing to say
        said = (
            "设置了 {}：课程的运行器离线运行" if zh else "{} is set: the course runner runs offline"
        )
        choice, why = "offline", said.format(FORCE_OFFLINE)
    if choice == "offline":
        from .offline import offline_client

        client, name = offline_client(*(policies or ()), max_retries=max_retries, surface=surface)
        if not quiet:
            print(
                f"agentlib：使用离线模型 {name}（{why}）；回复是写好的。"
                if zh
                else f"agentlib: using the offline model {name} ({why}); replies are scripted."
            )
        return client, name
    http_client = None
    if record is not None:
        from .offline.extras.replay import recording_http_client

        http_client = recording_http_client(record)
    client = anthropic_client(settings, max_retries=max_retries, http_client=http_client)
    name = model or settings.get("MODEL_ID", ("", ""))[0]
    if not name:
        offline = STAY_OFFLINE.get(surface, STAY_OFFLINE["notebook"])
        raise ConfigError(CHOSEN_BECAUSE["zh" if zh else "en"].format(why=why, offline=offline))
    if not quiet:
        where = settings.get(
            "ANTHROPIC_BASE_URL", ("Anthropic API" if zh else "the Anthropic API",)
        )[0]
        print(
            f"agentlib：使用 {where}，模型 {name}（{why}）。"
            if zh
            else f"agentlib: using {where} with model {name} ({why})."
        )
    return client, name


def config_error_for(error: BaseException) -> ConfigError | None:
    """A ConfigError naming cause and fix for a connection or credential failure, else None."""
    import anthropic

    if isinstance(error, anthropic.AuthenticationError):
        return ConfigError(
            "The API rejected the key (401 authentication_error). Check ANTHROPIC_API_KEY in "
            ".env or the environment: it may be mistyped, revoked, or meant for another endpoint."
        )
    if isinstance(error, anthropic.PermissionDeniedError):
        return ConfigError("The key may not use this model or endpoint (403). Check MODEL_ID.")
    if isinstance(error, anthropic.NotFoundError):
        return ConfigError(
            f"Not found (404): {error.message}. Check MODEL_ID and ANTHROPIC_BASE_URL."
        )
    if isinstance(error, anthropic.APIConnectionError):
        cause = error.__cause__ or error
        return ConfigError(
            f"Cannot reach the API at {error.request.url.copy_with(path='/')} ({cause}). Check your "
            "network and ANTHROPIC_BASE_URL, or use the offline model: "
            f"{STAY_OFFLINE['repl']} in the REPL, {STAY_OFFLINE['notebook']} in a notebook."
        )
    return None


@contextmanager
def _explained() -> Iterator[None]:
    """Re-raise an API error that config_error_for() understands as its ConfigError; others unchanged."""
    import anthropic

    try:
        yield
    except anthropic.APIError as error:
        explained = config_error_for(error)
        if explained is None:
            raise
        raise explained from None


def check_connection(client: anthropic.Anthropic, model: str) -> str:
    """Send one tiny request; return the model's name or raise ConfigError saying what to fix."""
    with _explained():
        reply = client.messages.create(
            model=model, max_tokens=1, messages=[{"role": "user", "content": "ping"}]
        )
    return reply.model


def list_models(client: anthropic.Anthropic) -> list[str]:
    """The model ids the configured key can use (calls the models endpoint)."""
    with _explained():
        return [entry.id for entry in client.models.list()]
