"""The command line. Bad input: one line naming the field, exit code 2.

Output is safe to print: the text report shows control characters of user text (a unit named
with terminal escape sequences, say) as visible escapes, and the JSON report escapes them
(``json.dumps`` writes ASCII only). A character the output's encoding cannot write (``é`` with
``PYTHONIOENCODING=ascii``) is written as an escape (``\\xe9``) rather than ending the command; text
that UTF-8 cannot hold at all (a lone surrogate) never gets this far: the loader refuses it,
naming the field (exit code 2). A reader that closes the pipe early (``| head -1``) ends the
command quietly, with exit code 1 and no traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from explorer.core.errors import ExplorerError, visible
from explorer.resolver import resolve

__all__ = ["main", "safe_text", "writable"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, like a bad file
        self.exit(2, f"error: {visible(message)}\n")


def safe_text(text: str) -> str:
    """The report's text with every control character but the newline shown as an escape.

    >>> safe_text("Orc \\x1b]0;pwned\\x07 boss\\n")
    'Orc \\\\x1b]0;pwned\\\\x07 boss\\n'
    """
    return visible(text, keep="\n")


def writable(text: str, encoding: str | None) -> str:
    """`text` with each character `encoding` cannot write as an escape (``\\xe9``, ``\\U0001f409``).

    >>> writable("Café", "ascii"), writable("Café", "utf-8"), writable("x", "no-such-codec")
    ('Caf\\\\xe9', 'Café', 'x')
    """
    try:
        text.encode(encoding or "utf-8")
    except UnicodeEncodeError:
        return text.encode(encoding or "utf-8", "backslashreplace").decode(encoding or "utf-8")
    except LookupError:
        pass
    return text


def _write(text: str) -> int:
    """Print `text`; a closed pipe ends quietly (exit code 1), its later flush silenced too."""
    text = writable(text, getattr(sys.stdout, "encoding", None))
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        try:  # the interpreter flushes stdout again at exit: point it at the null device
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    >>> main(["resolve", "no-such-file.json"])
    2
    """
    parser = _Parser(prog="python -m explorer", description="Exact board-game combat explorer.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("resolve", help="resolve a scenario file (JSON or TOML)")
    run.add_argument("file", help="scenario file, .json or .toml")
    run.add_argument("--json", action="store_true", help="print the JSON report")
    args = parser.parse_args(argv)
    try:
        report = resolve(args.file)
    except ExplorerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        return _write(json.dumps(report.to_dict(), indent=2) + "\n")
    return _write(safe_text(report.to_text()))
