"""One editable unit of an army list: name, Fortitude, wounded Fortitude, Ordning Value, flags."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from explorer.games.assault_of_the_giants import Unit
from explorer.panels.common.display import badge
from explorer.panels.common.number_box import NumberText
from explorer.scenario.sourced import EXAMPLE

__all__ = ["UnitRow", "FIELDS", "HEADERS", "WIDTHS", "column_headers"]

FIELDS = ("fortitude", "wounded_fortitude", "ordning_value")
"""The numeric fields of a unit, in display order."""

HEADERS = {"name": "name", "fortitude": "Fortitude", "wounded_fortitude": "wounded Fortitude",
           "ordning_value": "Ordning Value"}
"""The column headers over a unit row's boxes (its tick boxes carry their own labels)."""

WIDTHS = {"name": "112px", "fortitude": "64px", "wounded_fortitude": "64px", "ordning_value": "64px",
          "wounded": "98px", "champion": "106px", "button": "32px"}
"""The width of each input of a unit row (the column headers over them have the same)."""

_YOURS = "your value"
_ALLOWED = {"fortitude": "a whole number, 1 or more", "wounded_fortitude": "a whole number, 1 or more",
            "ordning_value": "a whole number, 0 or more"}


def column_headers() -> widgets.HBox:
    """The headers over the unit rows' boxes: a small label per box, of the box's width.

    >>> [h.layout.width for h in column_headers().children][:4]
    ['112px', '64px', '64px', '64px']
    """
    cells = [widgets.HTML(f'<div style="font-size:80%;line-height:1.15;color:#34495e">{HEADERS[key]}</div>',
                          layout=widgets.Layout(width=WIDTHS[key], height="auto"))
             for key in ("name", *FIELDS)]
    row = widgets.HBox(cells, layout=widgets.Layout(align_items="flex-end"))
    row.add_class("aotg-unit-headers")
    return row


class UnitRow:
    """One unit's editable values, with where each default came from.

    Args:
        unit: the starting values.
        sources: provenance per numeric field (missing fields are examples).
        changed: called after every edit.
        act: called with this row and ``"up"``, ``"down"`` or ``"remove"`` when a button is clicked.
    """

    def __init__(self, unit: Unit, sources: dict[str, str], changed: Callable[[], None],
                 act: Callable[[UnitRow, str], None], label: str | None = None) -> None:
        self.sources = {f: sources.get(f, EXAMPLE) for f in FIELDS}
        self.label = label or unit.name
        """What the row is called in tooltips and messages ("fire giant 1"; the army numbers twins)."""
        tips = self._tips(self.label, unit.champion)  # given at creation: no second message per box
        self.name = widgets.Text(value=unit.name, layout=widgets.Layout(width=WIDTHS["name"]), tooltip=tips["name"],
                                 _dom_classes=("aotg-unit-name",))
        self.fortitude = self._number(unit.fortitude, "fortitude", tips["fortitude"])
        self.wounded_fortitude = self._number(unit.wounded_fortitude, "wounded_fortitude", tips["wounded_fortitude"])
        self.ordning_value = self._number(unit.ordning_value, "ordning_value", tips["ordning_value"])
        self.wounded = widgets.Checkbox(value=unit.wounded, description="wounded", indent=False, tooltip=tips["wounded"],
                                        layout=widgets.Layout(width=WIDTHS["wounded"]))
        self.champion = widgets.Checkbox(value=unit.champion, description="champion", indent=False,
                                         tooltip=tips["champion"], layout=widgets.Layout(width=WIDTHS["champion"]))
        self.provenance = widgets.HTML()
        self.buttons: dict[str, widgets.Button] = {}
        for icon, action in (("arrow-up", "up"), ("arrow-down", "down"), ("trash", "remove")):
            button = widgets.Button(icon=icon, layout=widgets.Layout(width=WIDTHS["button"]), tooltip=tips[action],
                                    _dom_classes=(f"aotg-unit-{action}",))
            button.on_click(lambda _b, a=action: act(self, a))
            self.buttons[action] = button
        for field in FIELDS:
            getattr(self, field).observe(lambda _c, f=field: self._edited(f, changed), "value")
        self._wounded_before = unit.wounded
        self.champion.observe(self._champion_ticked, "value")
        self._champion_ticked()
        for w in (self.name, self.wounded, self.champion):
            w.observe(lambda _c: changed(), "value")
        self._show_sources()
        self.provenance.layout.margin = "-6px 0 4px 6px"
        self.box = widgets.VBox([widgets.HBox([self.name, self.fortitude, self.wounded_fortitude, self.ordning_value,
                                               self.wounded, self.champion, *self.buttons.values()]),
                                 self.provenance])

    @staticmethod
    def _tips(label: str, champion: bool) -> dict[str, str]:
        """Every tooltip of a row called `label`, by box ("fire giant 1: Fortitude", "remove fire giant 1")."""
        tips = {"name": f"{label}: {HEADERS['name']}",
                **{field: f"{label}: {HEADERS[field]} ({_ALLOWED[field]})" for field in FIELDS},
                "champion": f"{label}: champion (a champion has no wounded side, rulebook p.17)",
                "up": f"move {label} up (takes damage earlier)", "down": f"move {label} down (takes damage later)",
                "remove": f"remove {label}"}
        tips["wounded"] = (f"{label}: wounded (a champion has no wounded side: it shrugs off smaller "
                           "damage, rulebook p.17)" if champion else
                           f"{label}: wounded (the unit starts the battle on its wounded side)")
        return tips

    def set_label(self, label: str) -> None:
        """Call the row `label` in every tooltip ("fire giant 1: Fortitude", "remove fire giant 1")."""
        self.label = label
        tips = self._tips(label, self.champion.value)
        self.name.tooltip = tips["name"]
        for field in FIELDS:
            getattr(self, field).tooltip = tips[field]
        self.champion.tooltip = tips["champion"]
        for action in ("up", "down", "remove"):
            self.buttons[action].tooltip = tips[action]
        self.wounded.tooltip = tips["wounded"]

    def _champion_ticked(self, _change: object = None) -> None:
        """Champions have no wounded side (p.17): a champion cannot be wounded; unticking restores the flag."""
        if self.champion.value:
            self._wounded_before = self.wounded.value
            self.wounded.value = False
        elif self.wounded.disabled:
            self.wounded.value = self._wounded_before
        self.wounded.disabled = self.wounded_fortitude.disabled = self.champion.value
        self._wounded_tip()

    def _wounded_tip(self) -> None:
        self.wounded.tooltip = self._tips(self.label, self.champion.value)["wounded"]

    @staticmethod
    def _number(value: int, field: str, tooltip: str) -> NumberText:
        return NumberText(value, layout=widgets.Layout(width=WIDTHS[field]), tooltip=tooltip,
                          _dom_classes=(f"aotg-unit-{field.replace('_', '-')}",))

    def _edited(self, field: str, changed: Callable[[], None]) -> None:
        self.sources[field] = _YOURS
        self._show_sources()
        changed()

    def _show_sources(self) -> None:
        """Under the row, where its values come from: one badge for all three, or one per group of values.

        The values are named in full words ("Fortitude and Ordning Value"), as the column headers read.
        """
        groups: dict[str, list[str]] = {}
        for field, source in self.sources.items():
            groups.setdefault(source, []).append(HEADERS[field])
        grey = '<span style="font-size:85%;color:#5d6d7e">'
        if len(groups) == 1:
            text = f"{grey}source of the values: </span>{badge(next(iter(groups)))}"
        else:
            text = f"{grey}source: </span>" + " · ".join(
                f"<span style='font-size:85%'>{' and '.join(fields)}</span> {badge(source)}"
                for source, fields in groups.items())
        self.provenance.value = text

    def to_dict(self) -> dict[str, Any]:
        """The unit in scenario form, values as shown (a bad entry stays text; the resolver names it)."""
        return {"name": self.name.value or "unit", "fortitude": self.fortitude.value,
                "wounded_fortitude": self.wounded_fortitude.value, "ordning_value": self.ordning_value.value,
                "wounded": self.wounded.value, "champion": self.champion.value}
