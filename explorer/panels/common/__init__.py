"""What every game's panel shares: the chart widget, the page layout, error display and
badges, number boxes, the what-if comparison, the sweep, the scenario box, the roll-once
trace view and the dice lab.

These parts know no game: they talk to a `host.PanelHost` (the game's panel) and to a small
per-game adapter (`host.GameAdapter`), and import nothing from ``explorer.games.<game>``.
The display helpers are re-exported here.
"""

from explorer.panels.common.display import ErrorMessage, badge, heading, note, short_source, stylesheet

__all__ = ["ErrorMessage", "badge", "heading", "note", "short_source", "stylesheet"]
