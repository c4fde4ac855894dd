"""Serve the explorer with Voila on this machine only, after printing the address to open.

Usage: ``python scripts/serve.py [NOTEBOOK] [--port PORT]`` (``make run`` does this).
The port is PORT (default 8866) if it is free, otherwise one the system picks; the address
printed is the one Voila serves (``--Voila.port_retries=0``: never another port silently).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def pick_port(wanted: int) -> int:
    """`wanted` if it is free on localhost, else a free port chosen by the system."""
    for port in (wanted, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise SystemExit(f"error: no free port on {HOST}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", nargs="?", default=str(ROOT / "notebooks" / "explorer.ipynb"))
    parser.add_argument("--port", type=int, default=8866)
    args = parser.parse_args(argv)
    notebook = Path(args.notebook).resolve()
    if not notebook.is_file():
        raise SystemExit(f"error: no notebook {notebook}")
    port = pick_port(args.port)
    url = f"http://{HOST}:{port}/"
    rule = "=" * (len(url) + 12)
    print(f"\n{rule}\n  Open  {url}\n{rule}\n"
          "  The explorer opens in a few seconds (Voila runs the notebook on each page load).\n"
          "  Ctrl-C stops the server.\n", flush=True)
    command = [
        sys.executable, "-m", "voila", str(notebook),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={HOST}",
        "--Voila.port_retries=0",
        "--show_tracebacks=True",  # local only: a bug report can quote the traceback
    ]
    os.execv(sys.executable, command)


if __name__ == "__main__":
    main()
