"""A Game of Thrones LCG: golden cases for keywords, claims, X and where power sits, each naming its
Rules Reference entry (p.23's cases first), and the properties every challenge must keep.

Page numbers cite the 2015 Rules Reference; glossary entries whose page was not seen are named.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import ScenarioError
from explorer.games.agot_lcg import resolve
from tests.games.agot_lcg import oracle as agot_oracle
from tests.scenario.edits import edited


def challenge(attackers: list[dict[str, Any]], defenders: list[dict[str, Any]], *, kind: str = "power",
              claim: int = 1, att: int = 5, dfn: int = 5, **extra: Any) -> dict[str, Any]:
    """A one-challenge scenario with faction power `att` and `dfn`."""
    data: dict[str, Any] = {"game": "agot-lcg",
                            "challenge": {"type": kind, "claim": claim, "attackers": attackers, "defenders": defenders},
                            "power": {"attacker": {"faction": att}, "defender": {"faction": dfn}}}
    for key, value in extra.items():
        if key in ("stealth", "kill", "intimidate", "keyword_order", "str_modifiers"):
            data["challenge"][key] = value
        else:
            data[key] = value
    return data


def char(name: str, strength: int | str, *keywords: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "str": strength, **({"keywords": list(keywords)} if keywords else {}), **more}


def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return resolve(challenge(*args, **kwargs)).to_dict()


# --- Rules Reference p.23 first -------------------------------------------------------------------

def test_p23_winning_the_game_pillage_that_empties_the_deck_eliminates_the_loser() -> None:
    # p.23 "Winning the Game": a player whose draw deck has no cards left is eliminated, the other wins.
    # Glossary "Pillage": the winner discards 1 card from the top of the loser's deck per pillage character.
    d = run([char("Raider", 3, "pillage"), char("Reaver", 1, "pillage")], [char("Lookout", 2)],
            kind="intrigue", defender={"deck": 2}, attacker={"deck": 20})
    assert d["winner"] == "attacker" and d["game_winner"] == "attacker"
    assert d["game_end"]["reason"] == "elimination" and d["game_end"]["step"] == "4.2.5"
    assert d["deck_after"] == {"attacker": 20, "defender": 0}
    assert [k["keyword"] for k in d["keywords"]] == ["pillage"]
    # One card short: the defender keeps one card and the game goes on.
    d = run([char("Raider", 3, "pillage")], [char("Lookout", 2)], kind="intrigue", defender={"deck": 2})
    assert d["game_winner"] is None and d["deck_after"]["defender"] == 1


def test_p23_winning_the_game_pillage_before_renown_in_the_first_players_order() -> None:
    # 4.2.5: keyword types in the first player's order; the game ends at the first step meeting a victory.
    base = dict(kind="intrigue", att=14, defender={"deck": 1})
    d = run([char("Raider", 3, "pillage", "renown")], [char("Guard", 1)], **base)
    assert d["game_end"]["reason"] == "elimination"  # pillage comes before renown by default
    d = run([char("Raider", 3, "pillage", "renown")], [char("Guard", 1)], keyword_order=["renown", "pillage", "insight", "intimidate"],
            **base)
    assert d["game_end"]["reason"] == "power" and d["renown_gained"]["attacker"] == 1 and d["deck_after"]["defender"] == 1


def test_p23_winning_the_game_prized_power_can_win_at_the_claim() -> None:
    # Glossary "Prized": the opponent gains X power for their faction as the card leaves play (before reactions).
    d = run([char("Warlord", 5)], [char("Hostage", 1, "prized (2)")], kind="military", att=13,
            defender={"characters": 1})
    assert d["game_winner"] == "attacker" and d["game_end"]["step"] == "4.2.4"
    assert d["claim_effects"]["prized_power_gained"] == 2 and d["power_after"]["attacker"] == 15


def test_p23_the_letter_x_is_0_unless_the_scenario_sets_it() -> None:
    # p.23 "The letter X": X is 0 unless a card or a player's choice sets it; here the scenario's x.
    d = run([char("Sellsword", "X")], [char("Guard", 0)])
    assert d["str"]["attacker"] == 0 and d["winner"] == "none" and d["x"] == 0
    d = run([char("Sellsword", "X")], [char("Guard", 2)], x=3)
    assert d["str"]["attacker"] == 3 and d["winner"] == "attacker"
    # prized (X) and a claim of X read the same X.
    d = run([char("Warlord", 5)], [char("Hostage", 1, "prized (X)")], kind="military", x=2, defender={"characters": 1})
    assert d["claim_effects"]["prized_power_gained"] == 2
    d = resolve(edited(challenge([char("Warlord", 5)], []), "challenge.claim", "X")).to_dict()
    assert d["claim"] == 0 and d["power_moved"] == 0 and d["unopposed_bonus"] == 1


# --- stealth, intimidate, insight, renown ------------------------------------------------------

def test_stealth_targets_cannot_defend() -> None:
    # Glossary "Stealth"; 4.2.1: a character bypassed by stealth is not eligible to defend.
    data = challenge([char("Spy", 2, "stealth")], [], stealth={"Spy": "Guard"},
                     defender={"others": [char("Guard", 3)]})
    assert resolve(data).to_dict()["stealth_bypassed"] == ["Guard"]
    with pytest.raises(ScenarioError, match=r"^challenge.stealth: Guard is bypassed by stealth and cannot defend"):
        resolve(challenge([char("Spy", 2, "stealth")], [char("Guard", 3)], stealth={"Spy": "Guard"}))
    with pytest.raises(ScenarioError, match=r"^challenge.stealth: Varys has stealth"):
        resolve(challenge([char("Spy", 2, "stealth")], [], stealth={"Spy": "Varys"},
                          defender={"others": [char("Varys", 1, "stealth")]}))
    with pytest.raises(ScenarioError, match=r"^challenge.stealth: Brute is not an attacker with stealth"):
        resolve(challenge([char("Brute", 2)], [], stealth={"Brute": "Guard"}, defender={"others": [char("Guard", 3)]}))


def test_intimidate_kneels_within_the_margin_for_the_attacker_only() -> None:
    # Glossary "Intimidate": the attacking winner kneels a loser's character with STR <= the margin.
    others = [char("Lord", 5), char("Knight", 3), char("Page", 1)]
    d = run([char("Bully", 6, "intimidate")], [char("Guard", 2)], defender={"others": others})
    effect = next(k for k in d["keywords"] if k["keyword"] == "intimidate")
    assert effect["target"] == "Knight" and effect["amount"] == 1  # margin 4: the strongest standing within it
    d = run([char("Bully", 6, "intimidate")], [char("Guard", 2)], defender={"others": others}, intimidate="Page")
    assert next(k for k in d["keywords"] if k["keyword"] == "intimidate")["target"] == "Page"
    with pytest.raises(ScenarioError, match=r"^challenge.intimidate: Lord must be a standing character"):
        run([char("Bully", 6, "intimidate")], [char("Guard", 2)], defender={"others": others}, intimidate="Lord")
    # A defender that wins with intimidate kneels no one.
    d = run([char("Attacker", 1)], [char("Bully", 6, "intimidate")])
    assert next(k for k in d["keywords"] if k["keyword"] == "intimidate")["amount"] == 0


def test_insight_draws_but_never_the_last_card() -> None:
    # Glossary "Insight" (a "may"); p.23: drawing the last card would eliminate the drawer.
    d = run([char("Maester", 2, "insight"), char("Scholar", 1, "insight")], [], kind="intrigue", attacker={"deck": 5})
    assert d["keywords"][0]["amount"] == 2 and d["deck_after"]["attacker"] == 3
    d = run([char("Maester", 2, "insight"), char("Scholar", 1, "insight")], [], kind="intrigue", attacker={"deck": 2})
    assert d["keywords"][0]["amount"] == 1 and d["deck_after"]["attacker"] == 1 and d["game_winner"] is None


def test_renown_power_sits_on_the_character() -> None:
    # Glossary "Renown": the character gains the power; "Power": it counts toward 15.
    d = run([char("Knight", 3, "renown", power=2)], [])
    assert d["power_on_characters"]["attacker"] == {"Knight": 3}
    assert d["power_before"]["attacker"] == {"faction": 5, "cards": 2, "total": 7}
    assert d["power_after_detail"]["attacker"] == {"faction": 7, "cards": 3, "total": 10}


def test_other_glossary_keywords_say_they_do_not_act() -> None:
    # Glossary "Keywords": ambush, assault, bestow, limited, no attachments, shadow, terminal.
    d = run([char("A", 2, "assault", "limited", "shadow (3)", "bestow (1)", "terminal", "no attachments")], [])
    assert len(d["keywords_not_acting"]) == 6
    assert all("does not act in a challenge" in line for line in d["keywords_not_acting"])


# --- military claim and where power sits ------------------------------------------------------

def test_military_claim_kills_the_least_power_and_returns_power_to_the_treasury() -> None:
    # Glossary "Military Claim", "Leaves Play" (tokens go back to the treasury), "Prized".
    others = [char("Lord", 4, power=3), char("Steward", 1), char("Squire", 2, standing=False)]
    d = run([char("Warlord", 6)], [char("Sentry", 1, "prized (1)")], kind="military", claim=2,
            defender={"others": others})
    effects = d["claim_effects"]
    assert effects["killed"] == ["Steward", "Squire"] and effects["choice"] == "least power"
    assert d["power_after"] == {"attacker": 5, "defender": 8}
    # Named victims: the Lord's 3 power goes back to the treasury, the Sentry's prized 1 to the attacker.
    d = run([char("Warlord", 6)], [char("Sentry", 1, "prized (1)")], kind="military", claim=2,
            defender={"others": others}, kill=["Lord", "Sentry"])
    effects = d["claim_effects"]
    assert effects["power_returned_to_treasury"] == 3 and effects["prized_power_gained"] == 1
    assert d["power_after"] == {"attacker": 6, "defender": 5}
    with pytest.raises(ScenarioError, match=r"^challenge.kill: must name 2 character"):
        run([char("Warlord", 6)], [char("Sentry", 1)], kind="military", claim=2, defender={"others": others},
            kill=["Lord"])


def test_military_claim_with_only_a_count_keeps_the_old_meaning() -> None:
    # Old files: defender.characters counts characters; no power on them is known, so none is lost.
    d = run([char("Warlord", 6)], [char("Sentry", 1)], kind="military", claim=2, defender={"characters": 3},
            dfn=4)
    effects = d["claim_effects"]
    assert effects["characters_to_kill"] == 2 and effects["killed"] == ["Sentry"] and effects["unlisted_killed"] == 1
    assert d["power_after"]["defender"] == 4


def test_intrigue_claim_on_a_big_hand_is_a_formula() -> None:
    # Glossary "Intrigue Claim": random discards; 100 different cards and claim 4 would be 3.9 million outcomes.
    hand = {f"card {i}": 1 for i in range(100)}
    d = run([char("Spy", 3)], [], kind="intrigue", claim=4, defender={"hand": hand})
    effects = d["claim_effects"]
    assert effects["discard_chance_exact"]["card 7"] == "1/25" and "discards" not in effects
    assert "too many outcomes" in effects["discards_note"]
    assert agot_oracle.intrigue_survival(12, 1, 4) == Fraction(2, 3)


# --- properties -------------------------------------------------------------------------------

KEYWORD_SETS = st.lists(st.sampled_from(["renown", "insight", "pillage", "intimidate", "prized (1)", "stealth"]),
                        unique=True, max_size=3)
CHARACTERS = st.lists(st.tuples(st.integers(0, 5), KEYWORD_SETS, st.integers(0, 2)), max_size=3)


def _chars(side: str, rows: list[tuple[int, list[str], int]]) -> list[dict[str, Any]]:
    return [char(f"{side}{i}", s, *k, power=p) for i, (s, k, p) in enumerate(rows)]


@settings(max_examples=250, deadline=None)
@given(CHARACTERS, CHARACTERS, st.sampled_from(["military", "intrigue", "power"]), st.integers(0, 3),
       st.integers(0, 14), st.integers(0, 14), st.integers(0, 3), st.integers(0, 6))
def test_challenge_properties(att: list, dfn: list, kind: str, claim: int, fa: int, fd: int, deck: int,
                              others: int) -> None:
    data = challenge(_chars("A", att), _chars("D", dfn), kind=kind, claim=claim, att=fa, dfn=fd,
                     defender={"deck": deck + 1, "characters": len(dfn) + others})
    d = resolve(data).to_dict()
    a_str, d_str = d["str"]["attacker"], d["str"]["defender"]
    if d["game_end"] is None or d["game_end"]["step"] != "start":
        # A side with 0 STR never wins; a tie at 1 STR or more goes to the attacker (p.23).
        assert d["winner"] == agot_oracle.winner(a_str, d_str, len(att), len(dfn))
        if d["winner"] != "none":
            assert d["str"][d["winner"]] >= 1
        if a_str == d_str >= 1 and att:
            assert d["winner"] == "attacker"
    # Claim never moves more power than there is; power only comes from the treasury by the listed steps.
    assert d["power_moved"] <= min(claim, fd)
    before = sum(v["total"] for v in d["power_before"].values())
    after = sum(d["power_after"].values())
    effects = d["claim_effects"] or {}
    assert after == (before + d["unopposed_bonus"] + sum(d["renown_gained"].values())
                     + effects.get("prized_power_gained", 0) - effects.get("power_returned_to_treasury", 0))
    assert all(v >= 0 for side in d["power_after_detail"].values() for v in side.values())
    assert 0 <= d["deck_after"]["defender"] <= deck + 1


def test_every_ruling_is_listed_in_the_package_docstring() -> None:
    import explorer.games.agot_lcg as package
    from explorer.games.agot_lcg.challenge import rulings

    doc = " ".join((package.__doc__ or "").split())
    every = (rulings.CHALLENGE_RULINGS + rulings.ROUND_RULINGS + rulings.PLAN_RULINGS + rulings.ODDS_RULINGS
             + rulings.TIMING_RULINGS)
    for ruling in every:
        opening = " ".join(ruling.split()[:3])
        assert opening in doc, opening
