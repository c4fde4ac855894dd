"""Headless widget tests of the Arcadia Quest panel."""
