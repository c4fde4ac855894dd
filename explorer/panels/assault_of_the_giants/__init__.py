"""The Assault of the Giants panel and its parts (mirrors `explorer.games.assault_of_the_giants`).

- `panel`: `AssaultPanel`, the whole panel (a `explorer.panels.common.host.PanelHost`);
- `army`, `unit_row`, `commands`, `dice_editor`: the inputs (armies, units, command rows, dice);
- `cards_editor`: the Spell and Resource Cards each side plays before final totals (pp.16-17);
- `results`: the battle's charts and summary table;
- `adapter`: `AssaultAdapter`, the game's pieces for the shared what-if, sweep, roll-once
  trace and scenario box of `explorer.panels.common`;
- `loading`: a scenario loaded into every input.
"""

from explorer.panels.assault_of_the_giants.panel import DEFAULTS, AssaultPanel

__all__ = ["AssaultPanel", "DEFAULTS"]
