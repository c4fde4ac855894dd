"""Take the results away: the report as CSV, each chart as PNG or as a self-contained HTML file.

Nothing is prepared until asked: a button press makes the file in the kernel (the CSV) or asks
the page to make it (the charts, from the figure it already holds), so a change of input costs no
extra traffic. Files reach the browser through `FileSaver`, a hidden widget of the chart front
end (``js/src/share.js``) that saves what the kernel sends as a download.

- **CSV**: the one resolver's report for the current inputs (`explorer.resolve`, the same numbers
  as ``python -m explorer resolve FILE``), as its long table (``report.to_rows().to_csv()``: the
  bytes pandas' ``report.to_frame().to_csv(index=False)`` writes, without needing pandas).
- **PNG**: drawn by plotly.js in the page (``Plotly.downloadImage``); no server-side renderer.
- **HTML**: one file with plotly.js inlined from the extension's local copy, so it opens offline.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import ipywidgets as widgets
import traitlets

from explorer.core.errors import ScenarioError
from explorer.panels.common.chart import FRONT_END, FRONT_END_VERSION, Chart
from explorer.panels.common.display import ErrorMessage
from explorer.panels.common.host import Labels, PanelHost
from explorer.resolver import resolve

__all__ = ["FileSaver", "Exports", "report_csv", "chart_choices", "slug"]


def slug(text: str) -> str:
    """A file-name-safe version of `text`.

    >>> slug("Ordning Points earned (attacker)")
    'ordning-points-earned-attacker'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "chart"


class FileSaver(widgets.DOMWidget):
    """A hidden widget that saves files the kernel sends, as downloads in the browser.

    >>> saver = FileSaver()
    >>> saver.save("a.csv", "text/csv", "x\\n1\\n")  # no front end here: nothing happens
    """

    _model_name = traitlets.Unicode("FileSaverModel").tag(sync=True)
    _model_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _model_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)
    _view_name = traitlets.Unicode("FileSaverView").tag(sync=True)
    _view_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _view_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)

    saved = traitlets.Int(0).tag(sync=True)
    """How many files the page has saved (counted by the page)."""

    def save(self, filename: str, mime: str, content: str | bytes) -> None:
        """Send a file to the page, which saves it as `filename`."""
        message: dict[str, Any] = {"action": "save", "filename": filename, "mime": mime}
        if isinstance(content, bytes):
            message["base64"] = base64.b64encode(content).decode("ascii")
        else:
            message["text"] = content
        self.send(message)


def report_csv(scenario: dict[str, Any]) -> str:
    """The report of `scenario` as CSV: its long table (``to_rows()``), no index column, no pandas needed.

    >>> print(report_csv({"game": "aotg", "attacker": {"pool": {"basic": 1}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}}).splitlines()[0])
    side,quantity,outcome,probability

    Raises:
        ScenarioError: the resolver refuses the scenario.
    """
    return resolve(scenario).to_rows().to_csv()


def chart_choices(figures: dict[str, Chart]) -> list[tuple[str, str]]:
    """(label, key) for each chart, labelled by its key (titles change with the numbers).

    >>> chart_choices({"ordning_points": Chart()})
    [('ordning points', 'ordning_points')]
    """
    return [(key.replace("_", " "), key) for key in figures]


class Exports:
    """Buttons that save the report as CSV and a chosen chart as PNG or HTML.

    Args:
        host: the game's panel (its current scenario, whether its inputs are valid).
        labels: the game's names (the file names start with ``labels.noun``).
        figures: the panel's charts by key (``panel.results.figures``); none: CSV only.

    Attributes:
        csv, png, html: the buttons; chart: the chart picker; saver: the hidden `FileSaver`;
        error: a message; widget: the root.
    """

    def __init__(self, host: PanelHost, labels: Labels, figures: dict[str, Chart] | None = None) -> None:
        self.host = host
        self.noun = labels.noun
        self.figures = dict(figures or {})
        self.saver = FileSaver()
        self.csv = widgets.Button(description="Report as CSV", icon="table",
                                  tooltip=f"the {self.noun}'s report (every outcome's probability) as a CSV file")
        self.csv.add_class("explorer-export-csv")
        self.chart = widgets.Dropdown(options=chart_choices(self.figures), description="chart",
                                      layout=widgets.Layout(width="340px"))
        self.png = widgets.Button(description="PNG", icon="image", tooltip="the chosen chart as a PNG image",
                                  layout=widgets.Layout(width="80px"))
        self.html = widgets.Button(description="HTML", icon="file-code-o",
                                   tooltip="the chosen chart as an HTML file that opens offline (zoom, hover)",
                                   layout=widgets.Layout(width="90px"))
        self.png.add_class("explorer-export-png")
        self.html.add_class("explorer-export-html")
        self.error = ErrorMessage(f"{labels.css}-error", f"{labels.css}-error-export")
        self.csv.on_click(lambda _b: self.save_csv())
        self.png.on_click(lambda _b: self.save_chart("png"))
        self.html.on_click(lambda _b: self.save_chart("html"))
        row = [self.csv] + ([self.chart, self.png, self.html] if self.figures else [])
        self.widget = widgets.VBox([widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap")),
                                    self.error.widget, self.saver])
        self.widget.add_class("explorer-exports")

    def save_csv(self) -> str | None:
        """Send the current report as ``<noun>-report.csv``; the CSV text, or None if refused."""
        self.error.clear()
        if not self.host.valid:
            self.error.show("export: the inputs are refused (see the message above the charts); fix them first")
            return None
        try:
            text = report_csv(self.host.scenario())
        except ScenarioError as error:
            self.error.show(f"export: {error}")
            return None
        self.saver.save(f"{slug(self.noun)}-report.csv", "text/csv", text)
        return text

    def save_chart(self, fmt: str) -> str | None:
        """Ask the page to save the chosen chart as ``fmt`` (``png`` or ``html``); the file's base name."""
        self.error.clear()
        key = self.chart.value
        if key is None or key not in self.figures:
            self.error.show("export: no chart chosen")
            return None
        name = f"{slug(self.noun)}-{slug(key)}"
        self.figures[key].send({"action": "download", "format": fmt, "filename": name})
        return name
