"""Widget panels (ipywidgets): read values, call the resolver, update persistent figures.

Panels hold no rules: they build a scenario from their inputs, hand it to the game's
resolver, and pass the result to `explorer.charts`. ``explorer.panels.<game>`` mirrors
``explorer.games.<game>``; what every game shares is in `explorer.panels.common`.
"""
