"""Serve the explorer with Voila and print the address to open, token included.

Usage: ``python scripts/serve.py [NOTEBOOK] [--port PORT] [--token TOKEN] [--max-sessions N]
[--room N] [--warm N] [--refill-quiet SECONDS] [--idle-timeout SECONDS] [--public]`` (``make run`` does this; see ``--help``).

The port is PORT (default 8866) if it is free, otherwise one the system picks; the address
printed is the one served (``--Voila.port_retries=0``: never another port silently). The server
is `explorer.serving.server.ExplorerVoila`: it frees a page's kernel when the page is left, culls
kernels whose page went away, caps the number of kernels and accepts only a local ``Host``.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DEFAULT_MAX_SESSIONS = 8
DEFAULT_WARM = 1
DEFAULT_IDLE_TIMEOUT = 120
DEFAULT_REFILL_QUIET = 2.0
MIN_IDLE_TIMEOUT = 15
"""A kernel has no connection from its start until its page has loaded and connected: culling
it sooner than this could take it from a page still loading on a busy machine."""
IOPUB_TIMEOUT = 30
"""Seconds Voila waits, after a cell ran, for the cell's output (nbclient's default is 4)."""


def pick_port(wanted: int, host: str = HOST) -> int:
    """`wanted` if it is free on `host`, else a free port chosen by the system.

    Args:
        wanted: The port asked for.
        host: The address the server will listen on.

    Returns:
        A port that was free a moment ago.
    """
    for port in (wanted, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise SystemExit(f"error: no free port on {host}")


def positive(text: str) -> int:
    """An argparse type: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def idle_seconds(text: str) -> int:
    """An argparse type: an idle timeout of at least `MIN_IDLE_TIMEOUT` seconds."""
    value = int(text)
    if value < MIN_IDLE_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"must be >= {MIN_IDLE_TIMEOUT} s (a page's kernel must outlive the page's loading), got {value}")
    return value


def non_negative(text: str) -> int:
    """An argparse type: an integer >= 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


MIN_TOKEN_LENGTH = 16
"""The shortest token accepted: the token is all that stands between the room's network and the app."""


def token_problem(token: str) -> str:
    """Why `token` may not guard the server ('' when it may): too short, other characters, or guessable.

    >>> token_problem("WORKSHOP")
    'at least 16 characters (letters, digits, - and _), got 8; leave --token out for a random one'
    >>> token_problem("aaaaaaaaaaaaaaaaaaaa")
    'too easy to guess (at least 8 different characters); leave --token out for a random one'
    >>> token_problem("test-token-0123456789")
    ''
    """
    random_one = "leave --token out for a random one"
    if not token.isascii() or not token.replace("-", "").replace("_", "").isalnum():
        return f"only letters, digits, - and _ ({random_one})"
    if len(token) < MIN_TOKEN_LENGTH:
        return f"at least {MIN_TOKEN_LENGTH} characters (letters, digits, - and _), got {len(token)}; {random_one}"
    if len(set(token.lower())) < 8:
        return f"too easy to guess (at least 8 different characters); {random_one}"
    return ""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("notebook", nargs="?", default=str(ROOT / "notebooks" / "explorer.ipynb"))
    parser.add_argument("--port", type=int, default=8866, help="port to serve on if free (default 8866)")
    parser.add_argument(
        "--token", default=os.environ.get("EXPLORER_TOKEN") or None,
        help="the token the address must carry (default: $EXPLORER_TOKEN, else a new random one)",
    )
    parser.add_argument(
        "--room", type=positive, default=None, metavar="N",
        help="serve a room of N people who open the app together: --warm N --max-sessions 2N+4 "
             "(either still settable), about 150 MB per kernel",
    )
    parser.add_argument(
        "--max-sessions", type=positive, default=None,
        help=f"most kernels at a time, warm ones included (default {DEFAULT_MAX_SESSIONS}, or 2N+4 with --room N)",
    )
    parser.add_argument(
        "--warm", type=non_negative, default=None,
        help=f"kernels kept ready with the notebook already run (default {DEFAULT_WARM}, or N with --room N; 0: none)",
    )
    parser.add_argument(
        "--refill-quiet", type=float, default=DEFAULT_REFILL_QUIET, metavar="SECONDS",
        help=f"a warm kernel taken by a page is replaced, one at a time, once no page was asked for during "
             f"this long and the CPUs are half idle (default {DEFAULT_REFILL_QUIET:g}; 0: at once, as Voila "
             f"does), or at once when a page finds none ready",
    )
    parser.add_argument(
        "--idle-timeout", type=idle_seconds, default=DEFAULT_IDLE_TIMEOUT,
        help=f"seconds before a kernel whose page is gone is shut down (default {DEFAULT_IDLE_TIMEOUT}, "
             f"at least {MIN_IDLE_TIMEOUT})",
    )
    parser.add_argument(
        "--public", action="store_true",
        help="listen on every interface and accept any Host header (the token is still required)",
    )
    args = parser.parse_args(argv)
    if args.warm is None:
        args.warm = args.room if args.room else DEFAULT_WARM
    if args.max_sessions is None:
        args.max_sessions = 2 * args.room + 4 if args.room else DEFAULT_MAX_SESSIONS
    return args


UNUSED_EXTENSIONS = ["jupyterlab-plotly", "anywidget", "jupyterlab_pygments", "jupyterlab-jupytext"]
"""JupyterLab extensions installed alongside but not used by the app's page (jupytext's, which pairs
the lesson notebooks in JupyterLab, even fails to load outside JupyterLab)."""


def voila_argv(args: argparse.Namespace, notebook: Path, port: int, token: str) -> list[str]:
    """The command line of `explorer.serving.server.ExplorerVoila` for these options."""
    argv = [
        str(notebook),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={'0.0.0.0' if args.public else HOST}",
        "--Voila.port_retries=0",
        f"--Voila.token={token}",
        f"--ExplorerVoila.max_sessions={args.max_sessions}",
        f"--ExplorerVoila.idle_timeout={args.idle_timeout}",
        f"--ExplorerVoila.public={args.public}",
        f"--ExplorerVoila.refill_quiet={max(0.0, args.refill_quiet)}",
        # A bug report can quote a traceback; not shown to the world in public mode.
        f"--show_tracebacks={not args.public}",
        # After a cell, Voila waits this long for its output (the app's widgets) to come through;
        # nbclient's 4 s default loses the whole app when a busy 2-core machine is slower.
        f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
        # The page loads only the extensions the app uses: plotly's own renderer (a 4.8 MB
        # bundle of plotly.js parsed at every start) and anywidget are not used by the explorer,
        # whose charts come from the explorer-chart extension.
        f"--VoilaConfiguration.extension_denylist={UNUSED_EXTENSIONS!r}",
    ]
    if args.warm:
        argv += ["--preheat_kernel=True", f"--pool_size={min(args.warm, args.max_sessions)}"]
    return argv


ROOM_HINT = '  A room of N people opening it together: make run SERVE_ARGS="--room N".\n'
"""A line of the banner when ``--room`` was not given."""


def banner(url: str, args: argparse.Namespace) -> str:
    """The lines printed before the server starts."""
    rule = "=" * (len(url) + 12)
    warm = f", {args.warm} kept warm" if args.warm else ""
    where = ("  Public: any Host header is accepted; share the address only with whom you trust.\n"
             if args.public else "")
    return (
        f"\n{rule}\n  Open  {url}\n{rule}\n"
        f"  At most {args.max_sessions} sessions (kernels) at a time{warm}; a page left frees its kernel,\n"
        f"  a kernel whose page went away without saying so is shut down after {args.idle_timeout} s.\n"
        f"{where}"
        f"{'' if args.room else ROOM_HINT}"
        "  Ctrl-C stops the server.\n"
    )


def main(argv: list[str] | None = None) -> None:
    """Check the options, print the address to open, then run the server in this process."""
    args = parse_args(argv)
    notebook = Path(args.notebook).resolve()
    if not notebook.is_file():
        raise SystemExit(f"error: no notebook {notebook}")
    token = args.token or secrets.token_urlsafe(24)
    problem = token_problem(token)
    if problem:
        raise SystemExit(f"error: --token: {problem}")
    port = pick_port(args.port, "0.0.0.0" if args.public else HOST)
    shown_host = socket.gethostname() if args.public else HOST
    print(banner(f"http://{shown_host}:{port}/?token={token}", args), flush=True)

    from explorer.serving.server import main as serve

    serve(voila_argv(args, notebook, port, token))


if __name__ == "__main__":
    main()
