"""The Arcadia Quest panel and its parts (mirrors `explorer.games.arcadia_quest`).

- `panel`: `ArcadiaPanel`, the whole panel (a `explorer.panels.common.host.PanelHost`);
- `hero`: the active Hero and his Attack card; `monsters`: the target and the Close Monsters;
- `editor`: the one editor every hero, card and Monster input group is built from (a spec per kind);
- `values`: number boxes with their sources, and the ability tick boxes;
- `results`: the encounter's charts and summary table;
- `adapter`: `ArcadiaAdapter`, the game's pieces for the shared what-if, sweep, roll-once trace
  and scenario box of `explorer.panels.common`.
"""

from explorer.panels.arcadia_quest.panel import ArcadiaPanel

__all__ = ["ArcadiaPanel"]
