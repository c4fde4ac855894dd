"""Fixtures of the A Game of Thrones panel tests."""

from __future__ import annotations

import pytest

from explorer.panels.agot_lcg.panel import AgotPanel


@pytest.fixture
def panel() -> AgotPanel:
    """A new panel with the default round."""
    return AgotPanel()
