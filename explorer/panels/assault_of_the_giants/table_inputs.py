"""Inputs of the "Rules of the table" tab: one row per region, one per player's final standing.

Rows only hold widgets and write their part of the scenario's ``table`` key; no rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import CASTE_ORDER, MAX_GIANTSLAYERS, MAX_REGION_UNITS, MAX_STANDING

__all__ = ["RegionRow", "StandingRow", "points_value"]

_NOBODY = "nobody"
_RACES = [(race, race) for race in CASTE_ORDER]


def points_value(text: str, path: str) -> int | dict[str, int]:
    """Ordning Points as typed: ``24``, or still random: ``20, 26`` (even odds) or ``20:1, 26:3`` (weights).

    >>> points_value("24", "p"), points_value("20, 26", "p"), points_value(" 20:1 ,26:3", "p")
    (24, {'20': 1, '26': 1}, {'20': 1, '26': 3})
    >>> points_value("lots", "table.standings.hill.ordning_points")
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: table.standings.hill.ordning_points: must be a whole number such as 24, or values with weights such as 20:1, 26:3; got 'lots'
    """
    parts = [p.strip() for p in text.split(",") if p.strip()]
    try:
        if len(parts) == 1 and ":" not in parts[0]:
            return int(parts[0])
        weights: dict[str, int] = {}
        for part in parts:
            value, _, weight = part.partition(":")
            key = str(int(value))
            weights[key] = weights.get(key, 0) + (int(weight) if weight else 1)
        if weights:
            return weights
    except ValueError:
        pass
    raise ScenarioError(path, f"must be a whole number such as 24, or values with weights such as 20:1, 26:3; "
                              f"got {text[:30]!r}")


class RegionRow:
    """One region: name, kind, home race, whose giants stand there and how many units (0: not given;
    storm at most 3, p.9), giantslayers, Lyn Armaal."""

    def __init__(self, region: Mapping[str, Any], on_change: Callable[[], object],
                 on_remove: Callable[[RegionRow], None]) -> None:
        self.name = widgets.Text(value=str(region.get("name", "")), placeholder="region name",
                                 continuous_update=False, layout=widgets.Layout(width="150px"))
        self.kind = widgets.Dropdown(options=[("Starting Region", "starting"), ("Small Folk Region", "small-folk")],
                                     value=region.get("kind", "small-folk"), layout=widgets.Layout(width="150px"))
        self.home = widgets.Dropdown(options=_RACES, value=region.get("home") or CASTE_ORDER[0],
                                     description="of", style={"description_width": "18px"},
                                     layout=widgets.Layout(width="100px"))
        self.occupied_by = widgets.Dropdown(options=[(_NOBODY, _NOBODY)] + _RACES,
                                            value=region.get("occupied_by") or _NOBODY,
                                            description="giants", style={"description_width": "40px"},
                                            layout=widgets.Layout(width="125px"))
        self.units = widgets.BoundedIntText(value=int(region.get("units", 0)), min=0, max=MAX_REGION_UNITS,
                                            description="units", style={"description_width": "auto"},
                                            layout=widgets.Layout(width="95px"))
        self.giantslayers = widgets.BoundedIntText(value=int(region.get("giantslayers", 0)), min=0,
                                                   max=MAX_GIANTSLAYERS, description="slayers",
                                                   style={"description_width": "auto"},
                                                   layout=widgets.Layout(width="105px"))
        self.units.add_class("aotg-region-units")
        self.giantslayers.add_class("aotg-region-slayers")
        self.lyn_armaal = widgets.Checkbox(value=bool(region.get("lyn_armaal", False)), description="Lyn Armaal",
                                           indent=False, layout=widgets.Layout(width="95px"))
        self.remove = widgets.Button(description="✕", layout=widgets.Layout(width="32px"))
        self.remove.on_click(lambda _b: on_remove(self))
        self.name.observe(lambda _c: self._name_inputs(), "value")
        self._name_inputs()
        self.kind.observe(lambda _c: self._kind_changed(), "value")
        self._kind_changed()
        for w in (self.name, self.kind, self.home, self.occupied_by, self.units, self.giantslayers, self.lyn_armaal):
            w.observe(lambda _c: on_change(), "value")
        self.widget = widgets.HBox([self.name, self.kind, self.home, self.occupied_by, self.units, self.giantslayers,
                                    self.lyn_armaal, self.remove], layout=widgets.Layout(flex_flow="row wrap"))
        self.widget.add_class("aotg-table-region")

    def _name_inputs(self) -> None:
        """Name every input after the region in its tooltip ("Triboar: giantslayers")."""
        region = self.name.value.strip() or "this region"
        self.name.tooltip = f"{region}: region name"
        self.kind.tooltip = f"{region}: kind of region"
        self.home.tooltip = f"{region}: the race whose Starting Region it is"
        self.occupied_by.tooltip = f"{region}: whose giants stand there (one race at most, p.11)"
        self.units.tooltip = (f"{region}: how many units of those giants stand there (0: not given); "
                              "storm giants at most 3 (p.9)")
        self.giantslayers.tooltip = f"{region}: giantslayers there"
        self.lyn_armaal.tooltip = f"{region}: Lyn Armaal is there"
        self.remove.tooltip = f"remove {region}"

    def _kind_changed(self) -> None:
        self.home.layout.visibility = "visible" if self.kind.value == "starting" else "hidden"

    def to_dict(self) -> dict[str, Any]:
        """The region as the scenario writes it."""
        out: dict[str, Any] = {"name": self.name.value, "kind": self.kind.value}
        if self.kind.value == "starting":
            out["home"] = self.home.value
        if self.occupied_by.value != _NOBODY:
            out["occupied_by"] = self.occupied_by.value
            if self.units.value:
                out["units"] = self.units.value
        if self.giantslayers.value:
            out["giantslayers"] = self.giantslayers.value
        if self.lyn_armaal.value:
            out["lyn_armaal"] = True
        return out


class StandingRow:
    """One race's final standing: Ordning Points (a number, or values with weights), Resource Cards, regions."""

    def __init__(self, race: str, on_change: Callable[[], object]) -> None:
        self.race = race
        self.points = widgets.Text(value="0", description=race, continuous_update=False,
                                   placeholder="24 or 20:1, 26:1", style={"description_width": "45px"},
                                   layout=widgets.Layout(width="170px"))
        self.cards = widgets.BoundedIntText(value=0, min=0, max=MAX_STANDING, description="cards",
                                            style={"description_width": "40px"}, layout=widgets.Layout(width="110px"))
        self.regions = widgets.Text(value="", placeholder="counted", description="regions", continuous_update=False,
                                    style={"description_width": "50px"}, layout=widgets.Layout(width="130px"))
        self.points.tooltip = (f"{race}: Ordning Points at the end, a number (24) or still random as values "
                               "with weights (20:1, 26:1)")
        self.cards.tooltip = f"{race}: Resource Cards at the end"
        self.regions.tooltip = f"{race}: regions at the end (blank: counted from the table)"
        for w in (self.points, self.cards, self.regions):
            w.observe(lambda _c: on_change(), "value")
        self.widget = widgets.HBox([self.points, self.cards, self.regions])

    def to_dict(self) -> dict[str, Any]:
        """The standing as the scenario writes it (``regions`` left out when blank: counted from the table).

        Raises:
            ScenarioError: points or regions typed in a form the scenario cannot hold.
        """
        path = f"table.standings.{self.race}"
        out: dict[str, Any] = {"ordning_points": points_value(self.points.value, f"{path}.ordning_points"),
                               "resource_cards": self.cards.value}
        if self.regions.value.strip():
            try:
                out["regions"] = int(self.regions.value)
            except ValueError:
                raise ScenarioError(f"{path}.regions", f"must be a whole number, or blank to count the table's; "
                                                       f"got {self.regions.value[:30]!r}") from None
        return out

    def set(self, standing: Mapping[str, Any]) -> None:
        """Show a standing from a scenario."""
        points = standing.get("ordning_points", 0)
        self.points.value = (", ".join(f"{k}:{v}" for k, v in points.items()) if isinstance(points, Mapping)
                             else str(points))
        self.cards.value = int(standing.get("resource_cards", 0))
        self.regions.value = "" if standing.get("regions") is None else str(standing["regions"])
