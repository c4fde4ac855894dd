"""The app shows the Arcadia Quest panel as a tab between Assault of the Giants and the Dice lab."""

from __future__ import annotations

from explorer.app import DiceLabHost, show
from explorer.games import find_game


def test_show_has_the_arcadia_quest_tab_between_assault_and_the_dice_lab():
    app = show()
    tabs = app.children[-1]
    assert list(tabs.titles) == ["Assault of the Giants", "Arcadia Quest", "A Game of Thrones",
                                 "Dice lab"]
    tab = tabs.children[1]
    assert "explorer-lazy-tab" in tab._dom_classes and "aq-panel" not in tab.children[0]._dom_classes
    tabs.selected_index = 1  # the panel is built when its tab is first opened
    assert "aq-panel" in tab.children[0]._dom_classes
    panel = tab.children[0]
    tabs.selected_index = 0
    tabs.selected_index = 1
    assert tab.children[0] is panel  # built once


def test_show_one_game():
    widget = show("arcadia-quest")
    assert {"aq-panel", "explorer-root"} <= set(widget._dom_classes)
    assert find_game("aq").panel_title == "Arcadia Quest"


def test_the_arcadia_quest_dice_lab_opens_with_its_own_custom_die():
    host = DiceLabHost("arcadia-quest")
    assert host.lab.custom_faces.value == find_game("aq").lab_engine().custom_faces
    assert host.lab.error_texts() == {}
    host.game.value = "assault-of-the-giants"
    assert host.lab.custom_faces.value == "hit, 2 hit, block, arcane, blank, hit+block"
    assert host.lab.error_texts() == {}


def test_figures_are_valid_plotly(monkeypatch):
    """Figures are built without validation for speed; built once with it, every property must pass."""
    from explorer.charts import kit as common
    from explorer.charts.arcadia_quest import encounter_figures
    from explorer.panels.arcadia_quest.panel import ArcadiaPanel

    monkeypatch.setattr(common, "VALIDATE", True)
    panel = ArcadiaPanel()
    for view in common.VIEWS:
        encounter_figures(panel.result, view)
    panel.target.preset.value = "Lord Fang"
    encounter_figures(panel.result)
    panel.whatif.update(panel.result)
