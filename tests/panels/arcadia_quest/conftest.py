"""Fixtures of the Arcadia Quest panel tests."""

from __future__ import annotations

import pytest

from explorer.panels.arcadia_quest.panel import ArcadiaPanel


@pytest.fixture
def panel() -> ArcadiaPanel:
    """A new panel with the default encounter (printed p.20, Guard Example 1)."""
    return ArcadiaPanel()
