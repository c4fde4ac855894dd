"""The command line. Bad input: one line naming the field, exit code 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from explorer.errors import ExplorerError
from explorer.resolver import resolve

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like a bad file
        self.exit(2, f"error: {message}\n")


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
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.to_text(), end="")
    return 0
