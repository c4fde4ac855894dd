"""Helpers of the accessible-name tests: walk a widget tree and list the inputs nobody named.

In ipywidgets 8.1 an input's accessible name is its visible ``description`` (its label) or, when
that is empty, its ``tooltip`` (the input's ``title``); a Button's tooltip is its title, and a
ToggleButtons' buttons take their ``tooltips``. An input with none of these is read out as
"edit text" or "button": the tests fail on it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator

import ipywidgets as widgets

__all__ = ["INPUTS", "walk", "named", "unnamed", "open_every_tab", "shown_texts", "unexplained"]

INPUTS: tuple[type[widgets.Widget], ...] = (
    widgets.Text, widgets.Textarea, widgets.Combobox, widgets.Password,
    widgets.IntText, widgets.BoundedIntText, widgets.FloatText, widgets.BoundedFloatText,
    widgets.Dropdown, widgets.Select, widgets.SelectMultiple, widgets.RadioButtons,
    widgets.Checkbox, widgets.ToggleButton, widgets.ToggleButtons, widgets.Button,
    widgets.IntSlider, widgets.FloatSlider, widgets.IntRangeSlider, widgets.FloatRangeSlider,
    widgets.SelectionSlider, widgets.SelectionRangeSlider, widgets.TagsInput,
)
"""The widgets a person types in, picks from, ticks or presses."""


def walk(root: widgets.Widget) -> Iterator[widgets.Widget]:
    """Every widget under `root` (itself included), children of boxes, tabs and accordions too."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        stack.extend(reversed(list(getattr(widget, "children", ()) or ())))


def named(widget: widgets.Widget) -> bool:
    """Whether `widget` has an accessible name: a description, a tooltip, or (ToggleButtons) a tooltip per button.

    >>> named(widgets.Button(icon="trash")), named(widgets.Button(icon="trash", tooltip="remove it"))
    (False, True)
    >>> named(widgets.ToggleButtons(options=["a", "b"], tooltips=["one", "two"]))
    True
    """
    if str(getattr(widget, "description", "") or "").strip():
        return True
    if isinstance(widget, widgets.ToggleButtons):
        tips = list(widget.tooltips or ())
        return len(tips) == len(widget.options) and all(str(t).strip() for t in tips)
    return bool(str(getattr(widget, "tooltip", "") or "").strip())


def unnamed(root: widgets.Widget) -> list[str]:
    """The inputs under `root` with no accessible name, each as its type, CSS classes and value."""
    return [f"{type(w).__name__} {list(w._dom_classes)} {str(getattr(w, 'value', ''))[:30]!r}"
            for w in walk(root) if isinstance(w, INPUTS) and not named(w)]


def open_every_tab(panel: object, but: tuple[str, ...] = ()) -> None:
    """Open each tab of a panel's ``tabs`` (a `PartTabs`) in turn, building its part, but those in `but`."""
    tabs = panel.tabs  # type: ignore[attr-defined]
    for title in tabs.titles:
        if title not in but:
            tabs.select(title)
    tabs.select(tabs.titles[0])


_ABBR = re.compile(r"<abbr\b[^>]*>.*?</abbr>", re.S)
_TAG = re.compile(r"<[^>]+>")


def shown_texts(root: widgets.Widget) -> Iterator[tuple[widgets.Widget, str]]:
    """The words on screen under `root`: each HTML's text (not what ``<abbr>`` explains), each label and option.

    A widget's tooltip is not among them: a word it explains may be shown by the widget
    (`unexplained` checks that).
    """
    for w in walk(root):
        if isinstance(w, (widgets.HTML, widgets.Label)):
            yield w, html.unescape(_TAG.sub(" ", _ABBR.sub(" ", str(w.value))))
        if str(getattr(w, "description", "") or ""):
            yield w, str(w.description)
        if isinstance(w, (widgets.Dropdown, widgets.ToggleButtons, widgets.Select)):
            yield from ((w, str(label)) for label in w._options_labels)


def unexplained(root: widgets.Widget, words: Iterable[str]) -> list[str]:
    """Each of `words` (abbreviations, programmer words) shown under `root` with no tooltip saying what it is.

    A word counts as explained in a control whose tooltip says ``"<word>: ..."``, in an HTML
    element with a ``title``, or inside an ``<abbr>``.

    >>> unexplained(widgets.HTML("2 NPC giants, P(damage)"), ["NPC", "P(damage"])
    ["'NPC' in HTML []: '2 NPC giants, P(damage)'", "'P(damage' in HTML []: '2 NPC giants, P(damage)'"]
    >>> unexplained(widgets.HTML('2 <abbr title="NPC: non-player">NPC</abbr> giants'), ["NPC"])
    []
    """
    found = []
    for widget, text in shown_texts(root):
        tip = str(getattr(widget, "tooltip", "") or "") + " ".join(getattr(widget, "tooltips", ()) or ())
        titled = " ".join(re.findall(r'title="([^"]*)"', str(getattr(widget, "value", "")))) if isinstance(
            widget, widgets.HTML) else ""
        for word in words:
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) and f"{word}:" not in tip + titled:
                found.append(f"{word!r} in {type(widget).__name__} {list(widget._dom_classes)}: {text.strip()[:80]!r}")
    return found
