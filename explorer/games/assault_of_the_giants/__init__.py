"""D&D: Assault of the Giants (WizKids, 2017): battles, casualties, rewards and the endgame.

Edition and sources: the English rulebook (24 pages), of which pages 9-11, 13 and 16-20 were
readable (``shared/rules/assault-of-the-giants.md``); pages 17 and 20 are the project's seed pages.
Page numbers in this package refer to that rulebook.

Rulings chosen where the rules are silent or ambiguous (each is a place to check); the battle's
rulings are also data (`rules.rulings.BATTLE_RULINGS`), printed by every report and panel:

* Both sides roll; each side's totals are independent of the other's dice, and the attacker fixes
  its totals before the defender decides (p.16-17).
* Rerolls, policy ``misses``: dice showing a blank first; then, while rerolls remain, dice
  showing only arcane that the side's conversions cannot use (arcane beyond
  ``arcane_to_hits + arcane_to_blocks``), dice with 1 arcane before dice with 2.
  Among equal candidates of different kinds, the die whose fresh roll is worth most is rerolled
  first, worth being the expected hits + blocks of one roll with an arcane counted as 2 (the side
  has arcane-to-hits), 1 (arcane-to-block only) or 0; ties keep the pool's order.
  Each die is rerolled at most once (p.16: all at once).
* Conversions: arcane to 2 hits first, then arcane to 1 block (p.16); unconverted arcane is a miss.
* The Attack Command's arcane-to-2-hits bonus applies only in the battle it starts (p.17): a
  giantslayer attack (a Rest Command action) never has it, and in a giant's battle the Attack
  Command is the card just played, the last of the row (a row with cards after it is refused).
* NPC giants only defend (pp.19-20): an NPC attacker is refused.
* Casualties (p.17): champions have no wounded side (a wounded champion is refused); they are
  picked first and shrug off damage below their Fortitude; a unit that only gets wounded uses up the remaining damage, so a unit's wounded Fortitude
  matters only if it starts the battle wounded.
  Policy ``fewest-op``: the order conceding the fewest Ordning Points, then the fewest units
  defeated; among equally good orders the earliest by listed position.
* Both sides sustain casualties (the attacker's step is inferred: steps 6+ are on missing pages).
* Best play (``reroll_policy: best``, package `best`, `best.play`): the side rerolls and converts to maximise
  its ``objective``; a best defender answers the attacker's recorded totals (p.17); ties go to
  higher net Ordning Points, then damage dealt minus taken, then fewer dice rerolled.
* Rewards (p.19-20): a side earns the Ordning Value of each enemy unit it defeats; an NPC side
  earns nothing, ever; giantslayers earn half (rounded up) and, when defeated, give the defender
  1 Resource Card each, unless the defender is NPC giants.
* Cards in battle (p.16-17; scenario key ``cards``, module `rules.cards`): Spell and Resource Cards add
  the effects the user enters from the card, before final totals. Their dice join the pool; their
  rerolls are a second round, taken once the Command rerolls' results are known (the rules play
  cards after the Commands), the reroll policy applied again to the dice as they then lie, a die
  rerolled in the first round may be rerolled again (a side's ``card_rerolls: "with commands"``
  takes them with the Command rerolls instead, all at once and each die once; best play chooses
  both rounds, the second knowing the first's results, `best.two_rounds`); their conversions (arcane to 2 hits, arcane to 1 block)
  join the Commands' and come after every reroll; their flat hits and blocks are added after
  conversions.
* Stacking (p.9): a storm side holds at most 3 units, every unit counted (champions, leaders, NPC
  storm giants: p.9's storm setup of 1 elite, not 2 regulars, beside the champion only fits the limit
  if they count); the other races' limits are not in our pages, so none is checked.
* Giantslayer Actions (p.18): giantslayers attack by the Rest Command just played (the row's last
  card), one action per card to its left, 1 per attacking giantslayer, 3 at most; a row without
  Rest is not checked. On the table, recruiting costs 2 actions (Small Folk Regions only) and a move
  1 per region, never ending in a Starting Region before the Final Ordning.
* Who plays cards (pp.17, 19-20): Ore only the attacker, Weaponry both sides (p.17), any other
  card either side. NPC giants play none: they hold no cards (p.20 gives them only rerolls and
  conversions). A spell whose target is a 'Giant' cannot target giantslayers (p.19): not checked,
  the user enters only cards that may be played.
* Die faces and unit statistics are not in the pages we have: every default is an example,
  marked with its provenance (`data`).

The rules of the table (p.20: phases, moves through and into regions, attacks on Starting Regions,
recruiting when homeless, the Endgame's turns, the winner) keep their rulings as data too,
`table.rulings.TABLE_RULINGS`, the inferred ones marked; a scenario's ``table`` key asks them
(`table.scenario`).

A plan of battles (the optional keys ``armies``, ``plan`` and ``standings``, `plan.scenario`)
carries wounds and defeats from battle to battle and ends with p.20's standings and win chances;
its rulings are data too, `plan.battles.PLAN_RULINGS` (an empty army's battle does not take place, a pool
stays as written whatever units are left, nothing heals between battles).
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING

from explorer.games.assault_of_the_giants.battle.battle import (
    BattleResult,
    SideResult,
    joint_points,
    plan_points,
    resolve_battle,
)
from explorer.games.assault_of_the_giants.battle.report import BattleReport
from explorer.games.assault_of_the_giants.battle.scenario import battle_to_dict, parse_battle
from explorer.games.assault_of_the_giants.battle.sweep import cell_seconds
from explorer.games.assault_of_the_giants.best.costs import (
    MAX_SECONDS,
    check_report,
    report_costs,
    report_seconds,
    total,
)
from explorer.games.assault_of_the_giants.plan.battles import Army, Plan, PlanBattle, PlanSide, battle_outcomes
from explorer.games.assault_of_the_giants.plan.endgame import (
    Phase,
    Standing,
    endgame_turns,
    may_attack_starting_region,
    win_chances,
)
from explorer.games.assault_of_the_giants.plan.report import PlanReport
from explorer.games.assault_of_the_giants.plan.result import PlanResult, resolve_plan
from explorer.games.assault_of_the_giants.plan.scenario import is_plan, parse_plan
from explorer.games.assault_of_the_giants.rules.casualties import (
    absorb,
    assign_damage,
    assign_in_order,
)
from explorer.games.assault_of_the_giants.rules.combat import (
    convert,
    modifiers_from_commands,
    side_totals,
)
from explorer.games.assault_of_the_giants.rules.model import (
    Battle,
    CombatDie,
    Modifiers,
    Side,
    Status,
    Unit,
)

if TYPE_CHECKING:
    from explorer.games.assault_of_the_giants.table.report import TableReport

from explorer.games.assault_of_the_giants.battle.summary import (
    HEADLINE_SIDE,
    battle_headline,
    compare_frame,
    summary_frame,
    summary_rows,
)
from explorer.games.assault_of_the_giants.battle.sweep import OUTCOMES, PARAMETERS, SWEEP
from explorer.games.assault_of_the_giants.battle.trace import TraceStep, trace_battle
from explorer.games.assault_of_the_giants.best.advice import (
    Alternative,
    advise_conversion,
    advise_reroll,
    reroll_habits,
)
from explorer.games.assault_of_the_giants.best.row_advisor import MAX_EXTRA_CARDS, RowOption, row_options
from explorer.games.assault_of_the_giants.plan.scenario import ARMY_KEYS
from explorer.games.assault_of_the_giants.rules.cards import (
    EFFECT_LIMITS,
    ENTER_NOTE,
    MAX_CARD_DICE,
    MAX_CARDS_PER_SIDE,
    card_to_dict,
    cards_for,
    known_card,
    played,
)
from explorer.games.assault_of_the_giants.rules.data import (
    CASTE_ORDER,
    COMMAND_CARDS,
    DEFAULT_DICE,
    FACE_LIMITS,
    FACES_PER_DIE,
    GIANTSLAYER_ACTIONS,
    KNOWN_CARDS,
    MAX_DICE_PER_SIDE,
    STACKING_LIMITS,
    UNIT_PRESETS,
    RaceName,
)
from explorer.games.assault_of_the_giants.rules.model import (
    CARD_KINDS,
    CARD_REROLLS,
    CASUALTY_ORDERS,
    OBJECTIVES,
    REROLL_POLICIES,
    BattleCard,
    CardKind,
    CasualtyOrder,
    FixedPolicy,
    Objective,
    RerollPolicy,
    Symbols,
)
from explorer.games.assault_of_the_giants.rules.rulings import BATTLE_RULINGS, provenance
from explorer.games.assault_of_the_giants.table.legality import Answer, Recruit
from explorer.games.assault_of_the_giants.table.phase import RegionKind, phase, phase_reason
from explorer.games.assault_of_the_giants.table.report import QUESTIONS, TableAnswers, answer_table, setup_notes
from explorer.games.assault_of_the_giants.table.rulings import TABLE_RULINGS, ruling
from explorer.games.assault_of_the_giants.table.scenario import (
    MAX_GIANTSLAYERS,
    MAX_POOL,
    MAX_REGION_UNITS,
    MAX_REGIONS,
    MAX_STANDING,
    parse_table,
)

__all__ = [
    "ARMY_KEYS", "Alternative", "HEADLINE_SIDE", "battle_headline", "STACKING_LIMITS", "GIANTSLAYER_ACTIONS",
    "MAX_REGION_UNITS", "Answer", "Army", "BATTLE_RULINGS", "Battle", "BattleCard", "BattleReport",
    "BattleResult", "CARD_KINDS", "CARD_REROLLS", "CASTE_ORDER", "CASUALTY_ORDERS", "COMMAND_CARDS", "CardKind", "CasualtyOrder",
    "CombatDie", "FixedPolicy", "Objective", "RaceName", "RegionKind", "RerollPolicy",
    "DEFAULT_DICE", "EFFECT_LIMITS", "ENTER_NOTE", "FACES_PER_DIE", "FACE_LIMITS", "KNOWN_CARDS",
    "MAX_CARDS_PER_SIDE", "MAX_CARD_DICE", "MAX_DICE_PER_SIDE", "MAX_EXTRA_CARDS", "MAX_GIANTSLAYERS",
    "MAX_POOL", "MAX_REGIONS", "MAX_SECONDS", "MAX_STANDING", "Modifiers", "OBJECTIVES", "OUTCOMES",
    "PARAMETERS", "Phase", "Plan", "PlanBattle", "PlanReport", "PlanResult", "PlanSide", "QUESTIONS",
    "REROLL_POLICIES", "Recruit", "RowOption", "Side", "SideResult", "Standing", "Status", "Symbols",
    "TABLE_RULINGS", "TableAnswers", "TraceStep", "UNIT_PRESETS", "Unit", "absorb", "advise_conversion",
    "advise_reroll", "answer_table", "assign_damage", "assign_in_order", "battle_outcomes", "battle_to_dict",
    "card_to_dict", "cards_for", "cell_seconds", "check_report", "compare_frame", "convert", "endgame_turns",
    "estimate", "is_plan", "joint_points", "known_card", "may_attack_starting_region",
    "modifiers_from_commands", "parse_battle", "parse_plan", "parse_table", "phase", "phase_reason",
    "plan_points", "played", "provenance", "report_costs", "report_seconds", "reroll_habits", "resolve",
    "resolve_battle", "resolve_plan", "row_options", "ruling", "setup_notes", "side_totals", "summary_frame",
    "summary_rows", "SWEEP", "total", "trace_battle", "win_chances",
]

TABLE_SECONDS = 0.01
"""Work of the rules of the table (phase, moves, recruiting, winner): a few milliseconds."""


def estimate(data: object) -> float:
    """Seconds `resolve(data)` and its whole report are estimated at, before anything is computed
    (for a grid of scenarios, `explorer.resolver.estimate`).

    A battle: its rolls and searches and, when a side plays best, its best-play summary
    (`costs.report_costs`, small rolls weighed too), plus its casualties (`sweep.cell_seconds`). A plan of battles,
    or the row advisor, is weighed as it runs and refused past about 2 s: counted as 2 s.

    Raises:
        ScenarioError: the scenario does not read, or one part alone is over its limit.

    >>> estimate({"game": "aotg", "attacker": {"pool": {"basic": 2}, "units": []},
    ...           "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}}) < 0.1
    True
    """
    if isinstance(data, Mapping) and "table" in data:
        rest = {k: v for k, v in data.items() if k != "table"}
        return TABLE_SECONDS + (estimate(rest) if "attacker" in data or "defender" in data else 0.0)
    if is_plan(data):
        parse_plan(data)
        return MAX_SECONDS
    extra = 0.0
    if isinstance(data, Mapping) and "advisor" in data:
        data, extra = {k: v for k, v in data.items() if k != "advisor"}, MAX_SECONDS
    battle = parse_battle(data)
    return total(report_costs(battle, many=True))[0] + cell_seconds(battle) + extra


def resolve(data: object) -> "BattleReport | PlanReport | TableReport":
    """Parse a scenario mapping and resolve the battle, or the plan of battles (`is_plan`).

    >>> report = resolve({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 1}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 2}]}})
    >>> report.to_dict()["attacker"]["ordning_points"]
    {'0': 0.5, '2': 0.5}
    """
    if isinstance(data, Mapping) and "table" in data:  # the rules of the table (p.20), with or without a battle
        from explorer.games.assault_of_the_giants.table.report import resolve_table

        return resolve_table(data)
    if is_plan(data):
        return PlanReport(resolve_plan(parse_plan(data)))
    if isinstance(data, Mapping) and "advisor" in data:  # the command-row advisor beside the battle
        from explorer.games.assault_of_the_giants.best.row_advisor_scenario import parse_advisor

        battle_data = {k: v for k, v in data.items() if k != "advisor"}
        battle = parse_battle(battle_data)
        already = report_seconds(battle)  # the battle's report and the advisor's battles weighed as one request
        return _ready(BattleReport(resolve_battle(battle), parse_advisor(data["advisor"], battle, already)))
    battle = parse_battle(data)
    check_report(battle)  # a side playing best: the battle and its best-play summary weighed together, up front
    return _ready(BattleReport(resolve_battle(battle)))


def _ready(report: BattleReport) -> BattleReport:
    """The report with its best-play summary worked out (cached) when a side plays best, so that its
    outputs never stop on a refusal: the backstop, if ever, refuses here, where `resolve` is asked."""
    report.best_play()
    return report
