"""The A Game of Thrones panel and its parts (mirrors `explorer.games.agot_lcg`).

- `panel`: `AgotPanel`, the whole panel (a `explorer.panels.common.host.PanelHost`);
- `board`: the two sides' builders (characters, power, gold, decks) and the round's challenges;
- `results`: the round's summary, step trace and charts; `odds`: card odds and the race to 15;
- `adapter`: `AgotAdapter`, the game's pieces for the shared what-if, sweep, step view and
  scenario box of `explorer.panels.common`.
"""

from explorer.panels.agot_lcg.panel import AgotPanel

__all__ = ["AgotPanel"]
