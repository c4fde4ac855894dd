"""Tests of the shared panel parts (`explorer.panels.common`)."""
