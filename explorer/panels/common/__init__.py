"""What every game's panel shares: the chart widget, the page layout, error display and
badges, number boxes, the what-if comparison, the sweep, the scenario box, the roll-once
trace view and the dice lab.

These parts know no game: they talk to a `host.PanelHost` (the game's panel) and to a small
per-game adapter (`host.GameAdapter`), and import nothing from ``explorer.games.<game>``.
The display helpers are re-exported here; importing the package also makes every widget's
Layout send only the properties it sets (`lean_state`).
"""

from explorer.panels.common import lean_state
from explorer.panels.common.display import ErrorMessage, badge, heading, note, short_source, stylesheet

lean_state.install()

__all__ = ["ErrorMessage", "badge", "heading", "note", "short_source", "stylesheet"]
