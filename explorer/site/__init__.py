"""The explorer as a static site: the app and the lessons running in the browser, no server.

`explorer.site.build` makes ``build/site/`` (``make site``) from pinned downloads
(`explorer.site.pins`): the Pyodide runtime, the wheels the in-browser kernel loads
(`explorer.site.wheels`) and the pages around them (`explorer.site.pages`). The site is the top
layer beside the server: nothing below it imports it, and its wheel of the explorer leaves it out.
"""
