"""Command line: ``python -m explorer resolve FILE [--json]``."""

from explorer.cli import main

raise SystemExit(main())
