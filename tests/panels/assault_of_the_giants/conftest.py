"""Fixtures of the Assault of the Giants panel tests."""

from __future__ import annotations

import pytest

from explorer.panels.assault_of_the_giants.panel import AssaultPanel


@pytest.fixture
def panel() -> AssaultPanel:
    """A new panel with the default battle."""
    return AssaultPanel()
