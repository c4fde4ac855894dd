"""One challenge on a board, step by step: Appendix I 4.2 to 4.2.6 with claims and keywords.

Each step is a small pure function from a `Board` to a new `Board`; `play_challenge` runs them
in order, records the power after every step and stops at the first step where a player meets
a victory condition (Rules Reference p.23, "Winning the Game").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.board import Board, Declaration, PlayerState
from explorer.games.agot_lcg.challenge.claims import ClaimEffect, Hand, intrigue_odds, least_power_kills
from explorer.games.agot_lcg.challenge.keywords import (
    KEYWORD_RULES,
    intimidate_target,
    not_acting_lines,
    stealth_targets_allowed,
)
from explorer.games.agot_lcg.challenge.model import VICTORY_POWER, ResolutionKeyword
from explorer.games.agot_lcg.challenge.winning import GameEnd, challenge_winner, is_unopposed, victory

__all__ = ["ChallengeOutcome", "KeywordEffect", "StepRecord", "apply_claim", "play_challenge", "side_strength"]

_APPENDIX = "Rules Reference Appendix I"


@dataclass(frozen=True, slots=True)
class StepRecord:
    """What one framework step did, both power totals after it (board key order), and its rule."""

    number: str
    event: str
    totals: tuple[int, int]
    rule: str = ""


@dataclass(frozen=True, slots=True)
class KeywordEffect:
    """One keyword type processed at 4.2.5 (or prized at 4.2.4).

    Attributes:
        keyword: the keyword.
        player: key of the player whose characters have it.
        characters: names of those characters.
        amount: cards drawn or discarded, power gained, or 1 for a kneel (0: nothing happened).
        target: the character knelt by intimidate, if any.
        text: what happened, in words.
    """

    keyword: str
    player: str
    characters: tuple[str, ...]
    amount: int
    target: str | None
    text: str


@dataclass(frozen=True, slots=True)
class ChallengeOutcome:
    """Everything one challenge resolved to (see `play_challenge`)."""

    declaration: Declaration
    before: Board
    after: Board
    winner: str
    unopposed: bool
    strength: tuple[int, int]
    bonus: int
    claim: ClaimEffect | None
    keywords: tuple[KeywordEffect, ...]
    game_end: GameEnd | None
    steps: tuple[StepRecord, ...]
    not_acting: tuple[str, ...]
    bypassed: tuple[str, ...]

    @property
    def winner_key(self) -> str | None:
        """The winning player's key, None if no one won."""
        if self.winner == "none":
            return None
        attacker = self.declaration.attacker
        return attacker if self.winner == "attacker" else self.before.other(attacker)

    def gained(self, keyword: str) -> int:
        """The amount of `keyword`'s effect (0 if it did not act)."""
        return sum(k.amount for k in self.keywords if k.keyword == keyword)


def side_strength(state: PlayerState, indices: tuple[int, ...], modifier: int = 0) -> int:
    """Total STR of the characters at `indices` plus `modifier`, never below 0 (p.23).

    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> side_strength(PlayerState((Character("A", 2), Character("B", 3))), (0, 1), -1)
    4
    """
    return max(0, sum(state.characters[i].strength for i in indices) + modifier)


def _names(state: PlayerState, indices: tuple[int, ...] | list[int]) -> str:
    return ", ".join(state.characters[i].name for i in indices) or "no one"


def _check_stealth(board: Board, decl: Declaration) -> tuple[str, ...]:
    att, dfn = board.player(decl.attacker), board.player(board.other(decl.attacker))
    for k, (a, t) in enumerate(decl.stealth):
        where = f"{decl.where}.stealth"
        if a not in decl.attackers or not att.characters[a].has("stealth"):
            raise ScenarioError(where, f"{att.characters[a].name} is not an attacker with stealth")
        if not stealth_targets_allowed(dfn.characters[t]):
            raise ScenarioError(where, f"{dfn.characters[t].name} has stealth: stealth can only bypass a "
                                       "character without stealth (glossary \"Stealth\")")
        if [s for s, _ in decl.stealth].count(a) > 1:
            raise ScenarioError(where, f"{att.characters[a].name} chooses one stealth target, not several")
        if t in decl.defenders:
            raise ScenarioError(where, f"{dfn.characters[t].name} is bypassed by stealth and cannot defend "
                                       "(glossary \"Stealth\"; 4.2.1)")
    return tuple(dfn.characters[t].name for _, t in decl.stealth)


def _initiate(board: Board, decl: Declaration) -> tuple[Board, str]:
    """4.2: the attackers kneel at once; stealth targets are chosen at the same time."""
    att = board.player(decl.attacker)
    article = "an" if decl.type == "intrigue" else "a"
    text = f"{decl.attacker} initiates {article} {decl.type} challenge: {_names(att, decl.attackers)} kneel"
    dfn = board.player(board.other(decl.attacker))
    bypass = "; ".join(f"{att.characters[a].name} bypasses {dfn.characters[t].name} by stealth"
                       for a, t in decl.stealth)
    return board.with_player(decl.attacker, att.kneel(decl.attackers)), text + (f"; {bypass}" if bypass else "")


def _declare_defenders(board: Board, decl: Declaration) -> tuple[Board, str]:
    """4.2.1: the defenders kneel at once."""
    key = board.other(decl.attacker)
    dfn = board.player(key)
    text = (f"{key} declares {_names(dfn, decl.defenders)} as defenders" if decl.defenders
            else f"{key} declares no defenders")
    return board.with_player(key, dfn.kneel(decl.defenders)), text


def apply_claim(board: Board, decl: Declaration) -> tuple[Board, ClaimEffect]:
    """4.2.4: the claim result against the losing defender ("as much as possible")."""
    key, claim = board.other(decl.attacker), decl.claim
    att, dfn = board.player(decl.attacker), board.player(key)
    if decl.type == "power":
        moved = min(claim, dfn.faction)
        board = board.with_player(key, dfn.evolve(faction=dfn.faction - moved))
        board = board.with_player(decl.attacker, att.evolve(faction=att.faction + moved))
        return board, ClaimEffect("power", claim, power_moved=moved,
                                  limit="power on the defender's faction card" if moved < claim else None)
    if decl.type == "intrigue":
        size = dfn.hand
        discards = claim if size is None else min(claim, size)
        chances: dict[str, Fraction] = {}
        dist: Dist[Hand] | None = None
        if dfn.hand_cards is not None and size is not None:
            chances, dist = intrigue_odds(dfn.hand_cards, size - sum(n for _, n in dfn.hand_cards), discards)
        after = dfn.evolve(hand=None if size is None else size - discards, hand_cards=None)
        return board.with_player(key, after), ClaimEffect(
            "intrigue", claim, discards=discards, discard_dist=dist, hand=dfn.hand_cards, upper_bound=size is None,
            limit="cards in the defender's hand" if discards < claim else None, hand_size=size, chances=chances)
    return _military_claim(board, decl)


def _military_claim(board: Board, decl: Declaration) -> tuple[Board, ClaimEffect]:
    key, claim = board.other(decl.attacker), decl.claim
    att, dfn = board.player(decl.attacker), board.player(key)
    listed = dfn.in_play()
    known = None if dfn.unlisted is None else len(listed) + dfn.unlisted
    count = claim if known is None else min(claim, known)
    if decl.kill is not None:
        alive = {i for i, _ in listed}
        for i in decl.kill:
            if i not in alive:
                raise ScenarioError(f"{decl.where}.kill", f"{dfn.characters[i].name} is not in play any more")
        unknown = count - len(decl.kill)
        if unknown < 0 or (unknown > (dfn.unlisted if dfn.unlisted is not None else claim)):
            raise ScenarioError(f"{decl.where}.kill", f"must name {count} character(s) (claim {claim}, the defender "
                                                      f"controls {known if known is not None else 'an unknown number'})")
        chosen, unlisted, by = tuple(sorted(decl.kill)), unknown, "scenario"
    else:
        pool = dfn.unlisted if dfn.unlisted is not None else count
        chosen, unlisted = least_power_kills(listed, pool, count)
        by = "least power"
    returned = sum(dfn.characters[i].power for i in chosen)
    prized = sum(dfn.characters[i].prized for i in chosen)
    for i in chosen:
        dfn = dfn.with_power(i, 0)
    dfn = dfn.evolve(dead=dfn.dead | set(chosen),
                     unlisted=None if dfn.unlisted is None else dfn.unlisted - unlisted)
    board = board.with_player(key, dfn).with_player(decl.attacker, att.evolve(faction=att.faction + prized))
    return board, ClaimEffect(
        "military", claim, kills=count, upper_bound=known is None,
        limit="characters the defender controls" if count < claim else None,
        killed=tuple(dfn.characters[i].name for i in chosen), unlisted_killed=unlisted, chosen_by=by,
        power_returned=returned, prized_gained=prized)


def _keyword(board: Board, decl: Declaration, keyword: ResolutionKeyword, winner_key: str, margin: int
             ) -> tuple[Board, KeywordEffect] | None:
    """4.2.5: one keyword type, every instance of the winner's participating characters at once."""
    win, loser_key = board.player(winner_key), board.other(winner_key)
    loser = board.player(loser_key)
    mine = decl.attackers if winner_key == decl.attacker else decl.defenders
    names = tuple(win.characters[i].name for i in mine if win.characters[i].has(keyword))
    if not names:
        return None
    n = len(names)
    if keyword == "insight":
        drawn = n if win.deck is None else min(n, max(0, win.deck - 1))
        after = win.evolve(hand=None if win.hand is None else win.hand + drawn,
                           deck=None if win.deck is None else win.deck - drawn)
        note = "" if drawn == n else " (never the last card of the deck: the draw is a 'may')"
        return board.with_player(winner_key, after), KeywordEffect(
            keyword, winner_key, names, drawn, None, f"insight: {winner_key} draws {drawn} card(s){note}")
    if keyword == "pillage":
        gone = n if loser.deck is None else min(n, loser.deck)
        after = loser.evolve(deck=None if loser.deck is None else loser.deck - gone)
        deck = "" if loser.deck is None else f" (deck {loser.deck} -> {after.deck})"
        empty = f"; {loser_key}'s deck is empty: {loser_key} is eliminated (p.23)" if after.deck == 0 else ""
        return board.with_player(loser_key, after), KeywordEffect(
            keyword, winner_key, names, gone, None,
            f"pillage: {winner_key} discards {gone} card(s) from the top of {loser_key}'s deck{deck}{empty}")
    if keyword == "renown":
        for i in mine:
            if win.characters[i].has("renown"):
                win = win.with_power(i, win.characters[i].power + 1)
        return board.with_player(winner_key, win), KeywordEffect(
            keyword, winner_key, names, n, None, f"renown: +1 power on {', '.join(names)}")
    return _intimidate(board, decl, names, winner_key, margin)


def _intimidate(board: Board, decl: Declaration, names: tuple[str, ...], winner_key: str, margin: int
                ) -> tuple[Board, KeywordEffect]:
    loser_key = board.other(winner_key)
    loser = board.player(loser_key)
    if winner_key != decl.attacker:
        return board, KeywordEffect("intimidate", winner_key, names, 0, None,
                                    "intimidate: acts only for the attacking player (glossary \"Intimidate\")")
    standing = tuple((i, c) for i, c in loser.in_play() if c.standing)
    target: int | None
    if decl.intimidate is not None:
        target = decl.intimidate
        c = loser.characters[target]
        if (target, c) not in standing or c.strength > margin:
            raise ScenarioError(f"{decl.where}.intimidate", f"{c.name} must be a standing character of the loser "
                                                            f"with STR at most {margin} (the margin), got STR {c.strength}"
                                                            f"{'' if c.standing else ', kneeling'}")
    else:
        target = intimidate_target(standing, margin)
    if target is None:
        return board, KeywordEffect("intimidate", winner_key, names, 0, None,
                                    f"intimidate: no listed standing character of {loser_key} has STR at most {margin}")
    chosen = loser.characters[target].name
    return board.with_player(loser_key, loser.kneel((target,))), KeywordEffect(
        "intimidate", winner_key, names, 1, chosen,
        f"intimidate: {winner_key} kneels {chosen} (STR {loser.characters[target].strength}, margin {margin}); "
        "one instance per challenge")


def _claim_text(claim: ClaimEffect) -> str:
    if claim.type == "power":
        text = f"power claim {claim.claim}: {claim.power_moved} power moved to the attacker's faction card"
    elif claim.type == "military":
        who = list(claim.killed) + ([f"{claim.unlisted_killed} unlisted"] if claim.unlisted_killed else [])
        text = (f"military claim {claim.claim}: the defender kills {claim.kills} character(s)"
                + (f" ({', '.join(who)}, chosen by {claim.chosen_by})" if who else ""))
        if claim.power_returned:
            text += f"; {claim.power_returned} power on them goes back to the treasury"
        if claim.prized_gained:
            text += f"; prized: the attacker gains {claim.prized_gained} power for their faction"
    else:
        text = f"intrigue claim {claim.claim}: {claim.discards} card(s) discarded at random from hand"
    if claim.upper_bound and claim.claim:
        text += " (fewer if they have fewer)"
    return text + (f" (limited by the {claim.limit})" if claim.limit else "")


def play_challenge(board: Board, decl: Declaration, *, declare: bool = True, check_start: bool = False
                   ) -> ChallengeOutcome:
    """Resolve one declared challenge on `board`, step by step.

    Args:
        board: the board before the challenge.
        decl: the challenge; its defenders are already chosen (see `explorer.games.agot_lcg.round.defence`).
        declare: run 4.2 and 4.2.1 (kneel attackers and defenders); False when the scenario
            describes a challenge already declared.
        check_start: check the victory conditions before the challenge (step "start").

    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> b = Board(("first", "second"), (PlayerState((Character("Knight", 3, ("renown",), ("power",)),), faction=5),
    ...                                 PlayerState((Character("Guard", 2, (), ("power",)),), faction=3)))
    >>> out = play_challenge(b, Declaration("first", "power", (0,), (0,), claim=1))
    >>> out.winner, out.after.totals(), [s.number for s in out.steps]
    ('attacker', {'first': 7, 'second': 2}, ['4.2', '4.2.1', '4.2.2', '4.2.3', '4.2.4', '4.2.5', '4.2.6'])
    """
    a_key, d_key = decl.attacker, board.other(decl.attacker)
    before = board
    steps: list[StepRecord] = []
    winner, unopposed, bonus = "none", False, 0
    claim: ClaimEffect | None = None
    effects: list[KeywordEffect] = []
    participants = (tuple(board.player(a_key).characters[i] for i in decl.attackers)
                    + tuple(board.player(d_key).characters[i] for i in decl.defenders))
    bypassed = _check_stealth(board, decl)
    strength = (side_strength(board.player(a_key), decl.attackers, decl.str_modifiers[0]),
                side_strength(board.player(d_key), decl.defenders, decl.str_modifiers[1]))

    def record(number: str, event: str, rule: str) -> GameEnd | None:
        first, second = board.players[0], board.players[1]
        totals = (first.total, second.total)
        steps.append(StepRecord(number, event, totals, rule))
        if max(totals) < VICTORY_POWER and first.deck != 0 and second.deck != 0:
            return None  # the common case, without building the victory check's tables
        return victory(board.totals(), board.decks(), board.first_player, number)

    def done(end: GameEnd | None) -> ChallengeOutcome:  # reads the variables as they are when called
        return ChallengeOutcome(decl, before, board, winner, unopposed, strength, bonus, claim, tuple(effects),
                                end, tuple(steps), not_acting_lines(participants), bypassed)

    if check_start and (end := record("start", "position before the challenge", "Rules Reference p.23")):
        return done(end)
    if declare:
        board, text = _initiate(board, decl)
        record("4.2", text, f"{_APPENDIX} 4.2, p.28; glossary \"Stealth\"")
        board, text = _declare_defenders(board, decl)
        record("4.2.1", text, f"{_APPENDIX} 4.2.1, p.28")
    winner = challenge_winner(strength[0], strength[1], len(decl.attackers), len(decl.defenders))
    unopposed = is_unopposed(winner, strength[1])
    label = " (unopposed)" if unopposed else ""
    if end := record("4.2.2", f"STR {strength[0]} against {strength[1]}: winner {winner}{label}",
                     "Rules Reference p.23, \"Winning a Challenge\", \"Unopposed\"; 4.2.2, p.28"):
        return done(end)
    if unopposed:
        bonus = 1
        att = board.player(a_key)
        board = board.with_player(a_key, att.evolve(faction=att.faction + 1))
    if end := record("4.2.3", "unopposed bonus: +1 power on the attacker's faction card" if bonus
                     else "no challenge bonus", f"{_APPENDIX} 4.2.3; Rules Reference p.23, \"Unopposed\""):
        return done(end)
    if winner == "attacker":
        board, claim = apply_claim(board, decl)
        if claim.prized_gained:
            effects.append(KeywordEffect("prized", d_key, claim.killed, claim.prized_gained, None,
                                         f"prized: {a_key} gains {claim.prized_gained} power as prized characters "
                                         "leave play"))
    text = _claim_text(claim) if claim else "no claim (the attacker did not win)"
    if end := record("4.2.4", text, f"{_APPENDIX} 4.2.4; glossary \"Claim\", \"{decl.type.title()} Claim\""):
        return done(end)
    winner_key = None if winner == "none" else (a_key if winner == "attacker" else d_key)
    acted = False
    for keyword in board.keyword_order if winner_key else ():
        assert winner_key is not None  # the loop runs only when someone won
        out = _keyword(board, decl, keyword, winner_key, strength[0] - strength[1])
        if out is None:
            continue
        board, effect = out
        effects.append(effect)
        acted = True
        if end := record("4.2.5", effect.text, f"{_APPENDIX} 4.2.5; {KEYWORD_RULES[keyword].entry}"):
            return done(end)
    if not acted:
        record("4.2.5", "no resolution keywords" + ("" if winner_key else " (no winner)"), f"{_APPENDIX} 4.2.5")
    record("4.2.6", "challenge ends", f"{_APPENDIX} 4.2.6")
    return done(None)
