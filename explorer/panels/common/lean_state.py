"""Shorter widget messages: a Layout's full state is sent without the CSS properties it leaves unset.

Every widget of a page has its own ``ipywidgets.Layout``, and a Layout's first message (and its
part of the state a page asks for when it connects) lists every CSS property it has, about 40,
almost all ``null``: some 1.6 kB per widget, the largest share of what a page receives. The
browser's ``LayoutModel`` starts every one of those properties at ``null`` already
(``@jupyter-widgets/base``), so leaving the unset ones out changes nothing on the page; a
property set later (``layout.display = "none"``, or back to ``None``) is still sent by name, as
before. `install` makes `Layout.get_state` do so; importing ``explorer.panels.common`` installs it.

>>> install()
>>> import ipywidgets as widgets
>>> state = widgets.Layout(width="64px").get_state()
>>> sorted(k for k in state if not k.startswith("_"))
['width']
>>> widgets.Layout(width="64px").get_state("width"), widgets.Layout().get_state(["display"])
({'width': '64px'}, {'display': None})
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

__all__ = ["install"]

_INSTALLED = "_explorer_lean_state"


def install() -> None:
    """Make `ipywidgets.Layout` send its full state without the properties that are None (once)."""
    layout: Any = widgets.Layout
    if getattr(layout, _INSTALLED, False):
        return
    full = layout.get_state

    def get_state(self: widgets.Layout, key: Any = None, drop_defaults: bool = False) -> dict[str, Any]:
        state: dict[str, Any] = full(self, key, drop_defaults)
        if key is not None:  # an update names its keys: send them all, None included
            return state
        return {k: v for k, v in state.items() if v is not None or k.startswith("_")}

    layout.get_state = get_state
    setattr(layout, _INSTALLED, True)
