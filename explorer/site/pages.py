"""The site's own bits of page: the landing page and the start-up progress line.

A first visit to the in-browser app downloads the Python runtime and its packages (about 20 MB
before compression) and starts them, which takes seconds to tens of seconds; the page says what it
is doing meanwhile, with the time so far and what has arrived, instead of a bare spinner. Both are
plain HTML and JavaScript written into the built site (`explorer.site.build`).
"""

from __future__ import annotations

__all__ = ["APP_PATH", "LESSONS_PATH", "landing_page", "loading_script"]

APP_PATH = "voici/render/explorer.html"
"""The app's page, from the site's root."""
LESSONS_PATH = "lab/index.html?path=00-start-here.ipynb"
"""The lessons' first notebook in the site's lab."""

_LOADING = r"""
<script>
// explorer.site: what the page is doing while Python starts in this browser.
(function () {
  var start = performance.now();
  var stages = [
    [0, 'Loading the page'],
    [2, 'Starting Python in this browser (Pyodide): the runtime, then the explorer and its packages'],
    [25, 'Still starting Python: a first visit downloads about 20 MB; later visits use the browser\u2019s cache'],
  ];
  function received() {
    var bytes = 0, count = 0;
    performance.getEntriesByType('resource').forEach(function (e) { bytes += e.transferSize || e.encodedBodySize || 0; count += 1; });
    return count ? ' \u00b7 ' + count + ' files, ' + (bytes / 1e6).toFixed(1) + ' MB received by the page' : '';
  }
  function tick() {
    var box = document.getElementById('loading');
    var text = document.getElementById('loading_text');
    if (!box || !text || box.style.display === 'none') { clearInterval(timer); return; }
    var seconds = (performance.now() - start) / 1000;
    var stage = stages[0][1];
    stages.forEach(function (s) { if (seconds >= s[0]) stage = s[1]; });
    if (window.__explorerCells) stage = window.__explorerCells;
    text.textContent = stage + '\u2026 ' + Math.floor(seconds) + ' s' + received();
    text.setAttribute('aria-live', 'polite');
  }
  var before = window.update_loading_text;
  window.update_loading_text = function (index, count, label) {
    window.__explorerCells = 'Building the explorer (step ' + index + ' of ' + count + ')';
    if (before) return before.apply(this, arguments);
  };
  var timer = setInterval(tick, 500);
  tick();
})();
</script>
"""


def loading_script() -> str:
    """The script that keeps Voici's loading line saying what is happening, with the time so far.

    >>> "update_loading_text" in loading_script()
    True
    """
    return _LOADING


def landing_page() -> str:
    """The site's ``index.html``: forwards to the app, keeping the query (a share link) and hash.

    >>> "voici/render/explorer.html" in landing_page()
    True
    """
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rules explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<!-- the lite apps read their settings from every index.html up to the site's root (config-utils.js) -->
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<script>location.replace('{APP_PATH}' + location.search + location.hash);</script>
</head><body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>Rules explorer</h1>
<p><a href="{APP_PATH}">Open the explorer</a> (it runs in this browser: nothing to install) or
<a href="{LESSONS_PATH}">the lessons</a> (notebooks in a lab in this browser).</p>
</body></html>
"""
