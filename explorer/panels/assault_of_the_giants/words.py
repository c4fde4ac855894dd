"""Words the Assault of the Giants rules abbreviate, explained on hover wherever the panel writes them.

>>> explain("NPC giants (p.20)")
'<abbr title="NPC: non-player giants: a race no player controls; it only defends (pp.19-20)">NPC</abbr> giants (p.20)'
"""

from __future__ import annotations

from explorer.panels.common.table import explained_html

__all__ = ["TERMS", "explain"]

TERMS = {"NPC": "non-player giants: a race no player controls; it only defends (pp.19-20)"}
"""Each abbreviation the panel shows, with its meaning."""


def explain(markup: str) -> str:
    """`markup` with every abbreviation of `TERMS` wrapped in an ``<abbr>`` saying what it means."""
    return explained_html(markup, TERMS)
