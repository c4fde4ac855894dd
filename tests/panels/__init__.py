"""Headless widget tests of the panels, mirroring `explorer.panels`."""
