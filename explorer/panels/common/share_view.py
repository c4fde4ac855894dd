"""Share a scenario as a link, and open one: the "Copy link" field and the app's way in.

`ShareLink` is a small widget of the chart front end (``js/src/share.js``): a Copy link button
and a read-only field. The kernel keeps its ``query`` equal to the current scenario's
(`explorer.share.share_query`, a few hundred characters, updated after every resolve); the page
builds the address from its own URL, the only place where the real address is known (behind a
proxy, on Binder, with a token), and writes it back in ``link``.

On Binder (``BINDER_LAUNCH_HOST`` and ``BINDER_PERSISTENT_REQUEST`` in the environment) the
link is a Binder launch link instead (``href``), so that each person who opens it gets a
session of their own on the same commit, not the sender's. On a JupyterHub that knows its public
address (``JUPYTERHUB_PUBLIC_HUB_URL``) it is the hub's ``user-redirect`` link, which opens the
app on the server of whoever opens it (the page's own address is the sender's server, which the
hub refuses to anyone else).

`open_scenario` is how the app loads a linked scenario: through the game's own check (the
command line's checks, `ScenarioAdapter.check`) and then the panel's `apply`, all or nothing, as
the Load button does (`explorer.panels.common.safe_load`); `link_query` reads the page's query
string in Voila (also from a preheated kernel).

What Copy link shares is always the panel's current scenario: the query follows every resolve,
and when the scenario cannot be put in a link (too large, or text a link cannot hold) the field
shows why and holds no link, never the previous scenario's.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets
import traitlets

from explorer.core.errors import ScenarioError
from explorer.panels.common.chart import FRONT_END, FRONT_END_VERSION
from explorer.panels.common.display import note
from explorer.panels.common.exports import Exports
from explorer.panels.common.host import PanelHost, ScenarioAdapter
from explorer.panels.common.request_info import wait_for_request
from explorer.panels.common.safe_load import load_checked
from explorer.share import binder_link, share_query

__all__ = ["APP_PATH", "PageAddress", "ShareLink", "in_browser", "where_it_runs", "ShareView", "ShareAndExport", "open_scenario", "link_query", "binder_href", "hub_href"]

APP_PATH = "notebooks/explorer.ipynb"
"""The app notebook, from the repository root (the server's root on Binder)."""


class ShareLink(widgets.DOMWidget):
    """The Copy link button and field (front end: ``ShareLinkView`` in ``js/src/share.js``).

    >>> ShareLink(query="game=aq").link
    ''
    """

    _model_name = traitlets.Unicode("ShareLinkModel").tag(sync=True)
    _model_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _model_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)
    _view_name = traitlets.Unicode("ShareLinkView").tag(sync=True)
    _view_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _view_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)

    query = traitlets.Unicode("").tag(sync=True)
    """The app's query for the current scenario (``game=...&scenario=v1....``)."""
    href = traitlets.Unicode("").tag(sync=True)
    """A whole link to show instead of one built from the page's address (Binder), or ''."""
    app_path = traitlets.Unicode(APP_PATH).tag(sync=True)
    """The app notebook from the server's root, for a link made outside the app (JupyterLab)."""
    problem = traitlets.Unicode("").tag(sync=True)
    """Why there is no link (a scenario too large), shown instead of one; '' when there is."""
    link = traitlets.Unicode("").tag(sync=True)
    """The link the page showed last (written by the page)."""
    copies = traitlets.Int(0).tag(sync=True)
    """How many times Copy link was pressed (counted by the page)."""


class PageAddress(widgets.Widget):
    """The page's own address, told by the page (front end: ``PageAddressModel`` in ``js/src/share.js``).

    The in-browser site's kernel has no server to ask for the page's request: this widget, once
    the page has created its model, sets `search` and `href` from ``window.location``. It has no view.

    >>> PageAddress().search
    ''
    """

    _model_name = traitlets.Unicode("PageAddressModel").tag(sync=True)
    _model_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _model_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)

    search = traitlets.Unicode("").tag(sync=True)
    """The page's query string with its ``?`` (``?game=...&scenario=...``), or ''."""
    href = traitlets.Unicode("").tag(sync=True)
    """The page's whole address, without its ``#`` part."""


def in_browser(platform: str = sys.platform) -> bool:
    """Whether this Python runs inside the browser (Pyodide, the static site) rather than on a server.

    >>> in_browser("emscripten"), in_browser("linux")
    (True, False)
    """
    return platform == "emscripten"


def where_it_runs(platform: str = sys.platform) -> str:
    """One line for the page: where the numbers are worked out.

    >>> where_it_runs("linux")
    'Runs on a server: this page talks to a Python kernel there.'
    """
    if in_browser(platform):
        return "Runs in this browser: Python works out every number here, and nothing you enter is sent anywhere."
    return "Runs on a server: this page talks to a Python kernel there."


def binder_href(query: str, environ: Mapping[str, str] | None = None) -> str:
    """The Binder launch link for `query` when running on Binder, else ''.

    >>> binder_href("game=aq", {"BINDER_LAUNCH_HOST": "https://mybinder.org/",
    ...                         "BINDER_PERSISTENT_REQUEST": "v2/gh/o/r/abc"})[:52]
    'https://mybinder.org/v2/gh/o/r/abc?urlpath=voila%2Fr'
    >>> binder_href("game=aq", {})
    ''
    """
    env = os.environ if environ is None else environ
    host, request = env.get("BINDER_LAUNCH_HOST", ""), env.get("BINDER_PERSISTENT_REQUEST", "")
    if not (host.startswith(("http://", "https://")) and request):
        return ""
    return binder_link(host, request, f"voila/render/{APP_PATH}", query)


def hub_href(query: str, environ: Mapping[str, str] | None = None) -> str:
    """On a JupyterHub with a public address, the link opening the app on each person's own server, else ''.

    JupyterHub tells each server ``JUPYTERHUB_PUBLIC_HUB_URL`` when its ``public_url`` is set.

    >>> hub_href("game=aq", {"JUPYTERHUB_PUBLIC_HUB_URL": "https://class.example.org/hub/"})
    'https://class.example.org/hub/user-redirect/voila/render/notebooks/explorer.ipynb?game=aq'
    >>> hub_href("game=aq", {}), hub_href("game=aq", {"JUPYTERHUB_PUBLIC_HUB_URL": "javascript:alert(1)//"})
    ('', '')
    """
    env = os.environ if environ is None else environ
    hub = env.get("JUPYTERHUB_PUBLIC_HUB_URL", "")
    if not hub.startswith(("http://", "https://")):
        return ""
    target = f"{hub.rstrip('/')}/user-redirect/voila/render/{APP_PATH}"
    return f"{target}?{query}" if query else target


class ShareView:
    """The Copy link widget, kept on the host's current scenario after every resolve.

    Args:
        host: the game's panel.
    """

    def __init__(self, host: PanelHost) -> None:
        self.host = host
        self.link = ShareLink(layout=widgets.Layout(width="100%"))
        self.link.add_class("explorer-share-row")
        self.follow()
        host.on_update(lambda _update: self.follow())

    def follow(self) -> None:
        """Put the current scenario's query (or why there is none) in the widget; never keep an old one."""
        try:
            query = share_query(self.host.scenario())
        except Exception as error:  # noqa: BLE001 - whatever the reason, no stale link stays
            problem = error if isinstance(error, ScenarioError) else ScenarioError(
                "link", f"no link for this scenario ({type(error).__name__}: {error})")
            with self.link.hold_sync():
                self.link.problem = str(problem)
                self.link.query = ""
                self.link.href = ""
            return
        with self.link.hold_sync():
            self.link.problem = ""
            self.link.query = query
            self.link.href = binder_href(query) or hub_href(query)


class ShareAndExport:
    """The share and export rows the scenario box shows above its text (one per panel).

    Args:
        host: the game's panel; its charts come from its results view (``host.results.figures``)
            when it has one.
        adapter: the game's names.

    Attributes:
        share: the `ShareView`; exports: the `Exports`; widget: the root.
    """

    def __init__(self, host: PanelHost, adapter: ScenarioAdapter) -> None:
        self.share = ShareView(host)
        results = getattr(host, "results", None)
        self.exports = Exports(host, adapter.labels, getattr(results, "figures", None))
        self.widget = widgets.VBox([
            note(f"<b>Share</b>: Copy link gives an address that opens the app on this {adapter.labels.noun} "
                 "(the scenario travels in the link, as data). <b>Export</b>: the report as CSV, a chart as PNG "
                 "or as an HTML file that opens offline."),
            self.share.link, self.exports.widget])
        self.widget.add_class("explorer-share-export")


def open_scenario(panel: Any, scenario: Mapping[str, Any]) -> None:
    """Load a scenario into a game panel as its Load button does: the game's check, then `apply`.

    Args:
        panel: a game panel with a ``scenario_box`` (its adapter checks) and ``apply``.

    Raises:
        ScenarioError: the check or the panel refuses it; every input is as it was then.
    """
    box = panel.scenario_box
    load_checked(panel, box.adapter, scenario)
    box.show_current()


def link_query(environ: Mapping[str, str] | None = None) -> str:
    """The query string of the page this kernel serves ('' outside Voila).

    Voila puts the page request's ``QUERY_STRING`` in the kernel's environment; a preheated
    kernel (``VOILA_PREHEAT=True``) ran the notebook before any request, so it first waits for
    Voila to send it the request's details (`request_info.wait_for_request`, with the key the
    explorer's server asks for).

    >>> link_query({"QUERY_STRING": "game=aq"})
    'game=aq'
    """
    env = os.environ if environ is None else environ
    if environ is None and env.get("VOILA_PREHEAT") == "True":
        wait_for_request()
    return str(env.get("QUERY_STRING") or "")
