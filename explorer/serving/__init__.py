"""Serving the app: the Voila server, its checks, its gzip cache and the chart widget's installer."""
