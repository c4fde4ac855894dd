"""Pure functions from exact results to Plotly figures (no widgets).

`explorer.charts.kit` holds what every game uses (distribution bars in the =, >= and <=
views, A/B overlays, sweep heatmaps, joint heatmaps); each game's own figures live in
``explorer.charts.<game>``. The names below are re-exported for convenience; a game's figures
are imported only when first asked for, so importing `explorer.charts.kit` loads no game.
"""

from typing import Any

from explorer.charts.kit import (
    HEIGHT,
    SIDE_COLORS,
    VIEWS,
    compare_figure,
    distribution_figure,
    sides_figure,
    sweep_heatmap,
    symbols_figure,
    view_values,
)

__all__ = [
    "VIEWS", "SIDE_COLORS", "STATUS_COLORS", "HEIGHT", "view_values", "distribution_figure",
    "sides_figure", "casualties_figure", "battle_figures", "compare_figure", "sweep_heatmap", "symbols_figure",
]

_GAME_FIGURES = {
    "STATUS_COLORS": "explorer.charts.assault_of_the_giants",
    "battle_figures": "explorer.charts.assault_of_the_giants",
    "casualties_figure": "explorer.charts.assault_of_the_giants",
}
"""Re-exported names of game-specific figures: the module each comes from."""


def __getattr__(name: str) -> Any:
    """A game's figure (``charts.battle_figures``), imported on first use.

    >>> from explorer import charts
    >>> charts.battle_figures.__module__
    'explorer.charts.assault_of_the_giants'
    """
    if name in _GAME_FIGURES:
        import importlib

        value = getattr(importlib.import_module(_GAME_FIGURES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
