"""Pure functions from exact results to Plotly figures (no widgets).

`explorer.charts.common` holds what every game uses (distribution bars in the =, >= and <=
views, A/B overlays, sweep heatmaps, joint heatmaps); each game's own figures live in
``explorer.charts.<game>``. The names below are re-exported for convenience.
"""

from explorer.charts.assault_of_the_giants import STATUS_COLORS, battle_figures, casualties_figure
from explorer.charts.common import (
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
