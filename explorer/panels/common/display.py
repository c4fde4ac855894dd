"""Small widget helpers shared by the panels: error messages, provenance badges, headings, the stylesheet."""

from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path

import ipywidgets as widgets
from IPython.display import display

from explorer.scenario.sourced import EXAMPLE

__all__ = ["ErrorMessage", "badge", "short_source", "heading", "note", "show", "stylesheet"]


class ErrorMessage:
    """A red message shown next to an input; empty and hidden when all is well.

    >>> m = ErrorMessage("aotg-error")
    >>> m.show("attacker.pool.basic: must be >= 0")
    >>> "must be" in m.widget.value, m.widget.layout.display  # '' not None: the browser kernel drops None
    (True, '')
    >>> m.clear(); m.widget.layout.display
    'none'
    """

    def __init__(self, *classes: str) -> None:
        self.widget = widgets.HTML("", layout=widgets.Layout(display="none"))
        for css in classes:
            self.widget.add_class(css)

    def show(self, message: str) -> None:
        """Display `message` (escaped)."""
        self.widget.value = f'<div style="color:#b03a2e;font-weight:600">⚠ {html.escape(message)}</div>'
        self.widget.layout.display = ""

    def clear(self) -> None:
        """Hide the message."""
        self.widget.value = ""
        self.widget.layout.display = "none"

    @property
    def text(self) -> str:
        """The message shown, as plain text ('' when hidden)."""
        return html.unescape(self.widget.value.split("⚠ ", 1)[-1].removesuffix("</div>")) if self.widget.value else ""


def badge(source: str) -> str:
    """HTML for a provenance badge: grey for rulebook values, amber for examples.

    >>> "example" in badge("example, not from the rulebook")
    True
    """
    placeholder = source.startswith("example") or "inferred" in source
    color = "#8a5a00" if placeholder else "#5d6d7e"
    return (f'<span title="{html.escape(source)}" style="color:{color};font-size:85%;white-space:nowrap">'
            f"{html.escape(short_source(source))}</span>")


_SHORT = 40
"""A provenance longer than this is cut for its badge at its first ":", ";" or " (" (the tooltip has it all)."""


def short_source(source: str) -> str:
    """A provenance short enough for a badge; the full text goes in its tooltip.

    >>> short_source("rulebook p.17 (inferred from the worked example)")
    'p.17 (inferred)'
    >>> short_source(EXAMPLE)
    'example'
    >>> short_source("fan-collected, inferred: two fan lists agree (rules notes §4.1); check against your card")
    'fan-collected, inferred'
    """
    if source == EXAMPLE:
        return "example"
    if source.startswith("rulebook p."):
        page = source.split()[1]
        return page + (" (inferred)" if "inferred" in source else "")
    if len(source) > _SHORT:
        cuts = [i for i in (source.find(":"), source.find(";"), source.find(" (")) if i > 0]
        return source[:min(cuts)] if cuts else source[:_SHORT - 1] + "…"
    return source


def heading(text: str) -> widgets.HTML:
    """A small section heading."""
    return widgets.HTML(f"<b>{html.escape(text)}</b>")


def note(text: str) -> widgets.HTML:
    """A grey explanatory line (HTML allowed)."""
    return widgets.HTML(f'<span style="color:#5d6d7e;font-size:90%">{text}</span>')


@lru_cache(maxsize=1)
def _layout_css() -> str:
    return (Path(__file__).resolve().parent / "layout.css").read_text(encoding="utf-8")


def stylesheet() -> widgets.HTML:
    """The explorer's layout rules (two columns, stacked when narrow) as an invisible widget.

    Every panel root includes one, so a panel shown on its own is laid out like the app.

    >>> "explorer-main" in stylesheet().value
    True
    """
    sheet = widgets.HTML(f"<style>{_layout_css()}</style>", layout=widgets.Layout(height="0px", margin="0"))
    sheet.add_class("explorer-style")
    return sheet


def show(widget: object) -> None:
    """Display `widget` in the notebook or Voila page (IPython's `display`, which is untyped)."""
    display(widget)  # type: ignore[no-untyped-call]
