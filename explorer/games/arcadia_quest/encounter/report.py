"""The `resolve` reports of an encounter and of a sequence of attacks (JSON, table and text).

Both carry, besides the numbers, the scenario as read (every preset value written out), where each
value comes from (``sources``), the abilities in play with their sources, and the rulings chosen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from explorer.core.dist import Dist
from explorer.games.arcadia_quest.data import ABILITIES, AbilityName
from explorer.games.arcadia_quest.encounter.action import ROLL_CUT, EncounterResult
from explorer.games.arcadia_quest.encounter.fighters import AttackCard, Hero, Monster, attack_roll, defence_roll, strike
from explorer.games.arcadia_quest.encounter.payback import WORST
from explorer.games.arcadia_quest.encounter.scenario import encounter_to_dict, sequence_to_dict
from explorer.games.arcadia_quest.encounter.sequence import SETTLED, SequenceResult
from explorer.games.arcadia_quest.rulings import ENCOUNTER_RULINGS, REACTION_RULINGS, SEQUENCE_RULINGS
from explorer.scenario.report import Cell, Rows, dist_json, dist_weights, fmt_percent
from explorer.scenario.stats import Headline, headline

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["EncounterReport", "SequenceReport"]


_COLUMNS = ("quantity", "outcome", "probability")


# ----------------------------------------------------------------------------- shared pieces
def _wounds(n: int) -> str:
    return f"{n} Wound" + ("" if n == 1 else "s")


def _hero_line(hero: Hero, card: AttackCard) -> str:
    bonus = f" + {card.defence_bonus} from {card.name}" if card.defence_bonus else ""
    state = ", Dazed" * hero.dazed + ", flanked" * hero.flanked
    return (f"{hero.name}: Defense {hero.defence}{bonus}, Life {hero.life} ({_wounds(hero.wounds)} already), "
            f"reroll pool {hero.rerolls}{state}; abilities: {', '.join(hero.abilities) or 'none'}")


def _card_line(card: AttackCard) -> str:
    return f"{card.name}: {card.dice} {card.kind} dice, group {card.group}"


def _monster_line(m: Monster) -> str:
    overkill = "no Overkill" if m.overkill is None else f"Overkill {m.overkill}"
    state = ", Dazed" * m.dazed + ", flanked" * m.flanked + ", Villain" * m.villain
    return (f"{m.name}: attack {m.attack} {m.kind} dice, Defense {m.defence}, rerolls {m.rerolls}, Life {m.life} "
            f"({_wounds(m.wounds)} already), {overkill}, Reward {m.reward}{state}; abilities: "
            f"{', '.join(m.abilities) or 'none'}")


def _abilities(holders: dict[str, tuple[AbilityName, ...]]) -> dict[str, dict[str, Any]]:
    """Abilities in play: effect, source and who has them."""
    out: dict[str, dict[str, Any]] = {}
    for who, names in holders.items():
        for name in names:
            entry = out.setdefault(name, {"effect": ABILITIES[name].effect, "source": ABILITIES[name].source,
                                          "holders": []})
            entry["holders"].append(who)
    return out


def _cells(probs: dict[Any, Fraction]) -> str:
    return "  ".join(f"{o}:{fmt_percent(p)}" for o, p in probs.items() if p >= 0.00005)


def _closing_lines(rulings: tuple[str, ...], sources: dict[str, Any], abilities: dict[str, dict[str, Any]],
                   cut: Fraction) -> list[str]:
    lines = [f"  cut      {float(cut):.1e} (open CRIT chains cut, not renormalised)", "ABILITIES IN PLAY:"]
    lines += [f"  {name} ({', '.join(a['holders'])}): {a['effect']} [{a['source']}]" for name, a in abilities.items()]
    if not abilities:
        lines.append("  none")
    lines.append("RULINGS:")
    lines += [f"  - {ruling}" for ruling in rulings]
    lines.append("SOURCES (fan-collected values are examples to check against your cards):")
    for key, value in sources.items():
        for item in value if isinstance(value, list) else [value]:
            lines.append(f"  {key}: {item}")
    return lines


# ----------------------------------------------------------------------------- encounter
_ENCOUNTER_PROBABILITIES = ("kill", "overkill", "payback", "hero_killed", "hero_killed_and_monster_survives",
                            "kill_and_survive", "villain_token")
_LABELS = {"kill": "monster killed", "overkill": "overkilled", "payback": "payback made", "hero_killed": "hero killed",
           "hero_killed_and_monster_survives": "hero killed, monster survives",
           "kill_and_survive": "monster killed, hero survives", "villain_token": "Villain token placed"}


@dataclass(frozen=True, slots=True)
class EncounterReport:
    """Exact answer to an encounter scenario; `to_dict` is the JSON report.

    >>> from explorer.games.arcadia_quest import resolve
    >>> out = resolve({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
    ...                "target": {"preset": "Orc Marauder"}}).to_dict()
    >>> out["question"], out["kill"] >= out["overkill"], abs(sum(out["hero_wounds"].values()) + out["cut"] - 1) < 1e-12
    ('encounter', True, True)
    """

    result: EncounterResult

    def _dists(self) -> dict[str, Dist[int]]:
        res = self.result
        return {"hits": res.hits, "saves": res.saves, "wounds": res.monster_wounds,
                "monster_wounds": res.monster_wounds, "hero_wounds": res.hero_wounds}

    def sources(self) -> dict[str, Any]:
        """Where every value comes from, by part of the scenario."""
        enc = self.result.encounter
        out = {"hero": enc.hero.source, "attack": enc.card.source, "target": enc.target.source,
               "close_monsters": [m.source for m in enc.close_monsters], "dice": enc.dice_source}
        if enc.also_targets:
            out["also_targets"] = [t.monster.source for t in enc.also_targets]
        return out

    def abilities(self) -> dict[str, dict[str, Any]]:
        """The abilities in play."""
        enc = self.result.encounter
        holders = {enc.hero.name: enc.hero.abilities, enc.target.name: enc.target.abilities}
        holders.update({t.monster.name: t.monster.abilities for t in enc.also_targets})
        holders.update({f"{m.name} (Close)": m.abilities for m in enc.close_monsters})
        return _abilities(holders)

    def headline(self) -> Headline:
        """The headline outcome: the wounds the hero's attack deals to the target (`explorer.scenario.stats`)."""
        return headline(self.result.monster_wounds, "wounds dealt to the target")

    def guard(self) -> dict[str, Any]:
        """What the Guard reaction does: made or not, by whom, and why (printed p.20).

        ``triggered`` is true only when Guard attacks are made: not when the attack targets a Close
        Monster, nor when the opponent does not attack with the Monsters.
        """
        enc = self.result.encounter
        return {"triggered": bool(enc.guard_attackers), "attackers": [m.name for m in enc.guard_attackers],
                "reason": enc.guard_reason}

    def targets(self) -> list[dict[str, Any]]:
        """Per targeted Monster (the target first): P(killed), P(overkilled), P(it pays back), P(wounded)."""
        res = self.result
        out = []
        for i, spot in enumerate(res.encounter.targets):
            chances = res.target_chances(i)
            out.append({"name": spot.monster.name, "close": spot.close, "reaches": spot.reaches,
                        **{k: float(p) for k, p in chances.items()},
                        "exact": {k: str(p) for k, p in chances.items()}})
        return out

    def payback_by(self) -> dict[str, Any]:
        """Who pays back (only one targeted Monster does, printed p.21): the rule used and the chances."""
        res, enc = self.result, self.result.encounter
        names = [t.monster.name for t in enc.targets]
        who = {("nobody" if i < 0 else names[i]): p for i, p in res.payback_by.probabilities().items()}
        return {"rule": enc.payback_by, "who": {k: float(p) for k, p in who.items()},
                "exact": {k: str(p) for k, p in who.items()}}

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: distributions, probabilities, the joint table, coins, and what they rest on.

        ``hits``, ``saves`` and ``wounds`` are the hero's attack, as in the one-attack report
        (``wounds`` = ``monster_wounds``); ``hero_wounds`` are capped at his Life left; ``joint`` maps
        monster wounds -> hero wounds -> probability; ``cut`` is the probability left out of all of them.
        """
        res, enc = self.result, self.result.encounter
        dists = self._dists()
        probs = {name: getattr(res, name) for name in _ENCOUNTER_PROBABILITIES}
        joint: dict[str, dict[str, float]] = {}
        for (w, h), p in res.joint.probabilities().items():
            joint.setdefault(str(w), {})[str(h)] = float(p)
        coins = {"active_guild": res.coins_active, "other_guilds": res.coins_others}
        out: dict[str, Any] = {"format": 1, "game": "arcadia-quest", "question": "encounter"}
        out.update({name: dist_json(d) for name, d in dists.items()})
        out.update({name: float(p) for name, p in probs.items()})
        out["guard"] = self.guard()
        out["targets"] = self.targets()
        out["payback_by"] = self.payback_by()
        out["headline"] = self.headline().to_dict()
        out["joint"] = joint
        out["coins"] = {**{k: dist_json(d) for k, d in coins.items()},
                        "expected": {k: float(d.mean()) for k, d in coins.items()}, "guilds": enc.guilds}
        out["cut"] = float(res.cut)
        out["means"] = {name: float(d.mean()) for name, d in dists.items()}
        out["exact"] = {**{name: dist_weights(d) for name, d in dists.items()},
                        **{name: str(p) for name, p in probs.items()}, "joint": dist_weights(res.joint),
                        "coins": {k: dist_weights(d) for k, d in coins.items()}, "cut": str(res.cut)}
        out["scenario"] = encounter_to_dict(enc)
        out["sources"] = self.sources()
        out["abilities"] = self.abilities()
        out["rulings"] = list(ENCOUNTER_RULINGS + REACTION_RULINGS)
        return out

    def to_rows(self) -> Rows:
        """Long table: quantity, outcome, probability (the joint table as ``joint`` rows ``"w,h"``)."""
        res = self.result
        rows: list[dict[str, Cell]] = [{"quantity": q, "outcome": str(o), "probability": float(p)}
                for q, d in self._dists().items() if q != "wounds" for o, p in d.probabilities().items()]
        rows += [{"quantity": q, "outcome": "yes", "probability": float(getattr(res, q))}
                 for q in _ENCOUNTER_PROBABILITIES]
        rows += [{"quantity": "joint", "outcome": f"{w},{h}", "probability": float(p)}
                 for (w, h), p in res.joint.probabilities().items()]
        rows += [{"quantity": f"coins {k}", "outcome": str(o), "probability": float(p)}
                 for k, d in (("active guild", res.coins_active), ("other guilds", res.coins_others))
                 for o, p in d.probabilities().items()]
        rows += [{"quantity": "payback by", "outcome": who, "probability": p}
                 for who, p in self.payback_by()["who"].items()]
        rows += [{"quantity": f"{t['name']} {q}", "outcome": "yes", "probability": t[q]}
                 for t in self.targets()[1:] for q in ("kill", "overkill", "payback")]
        rows += [{"quantity": f"at least k {self.headline().of}", "outcome": str(k), "probability": float(p)}
                 for k, p in self.headline().at_least.items()]
        rows.append({"quantity": "cut", "outcome": "truncated", "probability": float(res.cut)})
        return Rows(_COLUMNS, tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def _joint_lines(self) -> list[str]:
        res, enc = self.result, self.result.encounter
        top = max(enc.target.life_left, enc.target.overkill or 0)
        columns = sorted(res.hero_wounds)
        table: dict[int, dict[int, Fraction]] = {}
        for (w, h), p in res.joint.probabilities().items():
            row = table.setdefault(min(w, top), {})
            row[h] = row.get(h, Fraction(0)) + p
        lines = ["JOINT (rows: wounds the attack deals to the monster; columns: wounds the hero takes)",
                 "        " + "".join(f"{h:>9}" for h in columns)]
        for w in sorted(table):
            label = f"{w}+" if w == top else str(w)
            lines.append(f"  {label:>4}  " + "".join(f"{fmt_percent(table[w].get(h, 0)):>9}" for h in columns))
        return lines

    def to_text(self) -> str:
        """A readable report for the command line."""
        res, enc = self.result, self.result.encounter
        guard = (f"{len(enc.guard_attackers)} Guard attack(s): {', '.join(m.name for m in enc.guard_attackers)}"
                 if enc.guard_attackers else f"no Guard attack ({enc.guard_reason})")
        lines = [enc.title, f"HERO: {_hero_line(enc.hero, enc.card)}", f"ATTACK: {_card_line(enc.card)}",
                 f"TARGET: {_monster_line(enc.target)}; Close to the hero: {'yes' if enc.target_close else 'no'}; "
                 f"Payback reaches: {'yes' if enc.payback_reaches else 'no'}"]
        lines += [f"ALSO TARGETED: {_monster_line(t.monster)}; Close to the hero: {'yes' if t.close else 'no'}; "
                  f"Payback reaches: {'yes' if t.reaches else 'no'}" for t in enc.also_targets]
        lines += [f"CLOSE MONSTER: {_monster_line(m)}" for m in enc.close_monsters]
        payback = "one Payback, by a targeted Monster not overkilled" if enc.also_targets else "Payback unless overkilled"
        lines.append(f"REACTIONS: {payback}{'' if enc.opponent_attacks else ' (opponent never attacks)'}; {guard}")
        lines += ["HEADLINE: " + line if i == 0 else line for i, line in enumerate(self.headline().text_lines())]
        if enc.also_targets:
            rule = ("the worst for the hero (highest P(hero killed), then most Wounds expected, then first listed)"
                    if enc.payback_by == WORST else f"the {enc.payback_by} (payback_by), else the worst of the others")
            who = ", ".join(f"{k} {fmt_percent(p)}" for k, p in self.payback_by()["who"].items())
            lines.append(f"PAYBACK BY (one targeted Monster, chosen by the opponent, printed p.21: {rule}): {who}")
            lines += [f"  {t['name']}: killed {fmt_percent(t['kill'])}, overkilled {fmt_percent(t['overkill'])}, "
                      f"pays back {fmt_percent(t['payback'])}" for t in self.targets()]
        for name, dist in self._dists().items():
            if name != "wounds":
                lines.append(f"  {name:<14} mean {float(dist.mean()):6.3f}   {_cells(dist.probabilities())}")
        lines += [f"  {_LABELS[q]:<30} {fmt_percent(getattr(res, q)):>8}" for q in _ENCOUNTER_PROBABILITIES
                  if q != "villain_token" or enc.target.villain]
        lines += self._joint_lines()
        lines.append(f"COINS ({enc.guilds} Guilds): active Guild mean {float(res.coins_active.mean()):.3f} "
                     f"({_cells(res.coins_active.probabilities())}); other Guilds together mean "
                     f"{float(res.coins_others.mean()):.3f} ({_cells(res.coins_others.probabilities())})")
        lines += _closing_lines(ENCOUNTER_RULINGS + REACTION_RULINGS, self.sources(), self.abilities(), res.cut)
        return "\n".join(line for line in lines if line) + "\n"


# ----------------------------------------------------------------------------- sequence
@dataclass(frozen=True, slots=True)
class SequenceReport:
    """Exact answer to a sequence scenario; `to_dict` is the JSON report.

    >>> from explorer.games.arcadia_quest import resolve
    >>> out = resolve({"party": [{"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"}}],
    ...                "target": {"preset": "Orc Marauder"}}).to_dict()
    >>> out["question"], abs(sum(out["attacks_to_kill"].values()) + out["party_killed"] + out["beyond_cap"]
    ...                      + out["cut"] - 1) < 1e-12
    ('sequence', True)
    """

    result: SequenceResult

    def opening_attack(self) -> dict[str, Dist[int]]:
        """Hits, saves and wounds of the first hero's first attack (the one-attack report's keys)."""
        seq = self.result.sequence
        hero, card = seq.party[0]
        target = seq.target
        attack = attack_roll(card.dice, card.kind, hero.rerolls, hero.abilities, wounded=hero.wounds > 0,
                             target_flanked=target.flanked, attack_die=seq.attack_die)
        defence = defence_roll(target.defence, target.rerolls, target.abilities, wounded=target.wounds > 0,
                               dazed=target.dazed, attacker_abilities=hero.abilities, defence_die=seq.defence_die)
        return {"hits": attack.successes(ROLL_CUT), "saves": defence.successes(ROLL_CUT),
                "wounds": strike(attack, defence, ROLL_CUT)}

    def sources(self) -> dict[str, Any]:
        """Where every value comes from."""
        seq = self.result.sequence
        return {"party": [f"{h.name}: {h.source}; {c.name}: {c.source}" for h, c in seq.party],
                "target": seq.target.source, "dice": seq.dice_source}

    def abilities(self) -> dict[str, dict[str, Any]]:
        """The abilities in play."""
        seq = self.result.sequence
        holders = {hero.name: hero.abilities for hero, _ in seq.party}
        holders[seq.target.name] = seq.target.abilities
        return _abilities(holders)

    def heroes(self) -> list[dict[str, Any]]:
        """Per hero: P(deals the killing Wound), expected Reward, P(killed), wounds taken."""
        res = self.result
        return [{"name": hero.name, "makes_the_kill": float(p), "expected_reward": float(p * res.sequence.target.reward),
                 "killed": float(dead), "wounds": {str(k): float(v) for k, v in wounds.items()},
                 "exact": {"makes_the_kill": str(p), "killed": str(dead)}}
                for (hero, _), p, dead, wounds in zip(res.sequence.party, res.killers, res.heroes_killed(),
                                                      res.hero_wounds)]

    def headline(self) -> Headline | None:
        """The headline outcome: the number of attacks that kills the Monster, given that it is killed
        within the cap (the mean is then ``mean_attacks_to_kill``; P(killed) is in the label). None if
        it never dies within the cap."""
        res = self.result
        kills = {n: p for n, p in res.kills.items() if p}
        if not kills:
            return None
        scale = math.lcm(*(p.denominator for p in kills.values()))
        return headline(Dist({n: int(p * scale) for n, p in kills.items()}),
                        f"attacks needed to kill the Monster, when it is killed within the cap "
                        f"({fmt_percent(res.killed)} of the time)")

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: attacks needed, who kills, who dies, the cap and what lies beyond it."""
        res = self.result
        mean = res.mean_attacks_to_kill()
        out: dict[str, Any] = {"format": 1, "game": "arcadia-quest", "question": "sequence"}
        out.update({name: dist_json(d) for name, d in self.opening_attack().items()})
        out["attacks_to_kill"] = {str(n): float(p) for n, p in res.kills.items()}
        out.update(killed=float(res.killed), party_killed=float(res.party_killed), beyond_cap=float(res.beyond_cap),
                   max_attacks=res.sequence.max_attacks, followed=res.followed,
                   mean_attacks_to_kill=None if mean is None else float(mean))
        out["heroes"] = self.heroes()
        top = self.headline()
        out["headline"] = None if top is None else top.to_dict()
        out["cut"] = float(res.cut)
        out["exact"] = {"attacks_to_kill": {str(n): str(p) for n, p in res.kills.items()}, "killed": str(res.killed),
                        "party_killed": str(res.party_killed), "beyond_cap": str(res.beyond_cap), "cut": str(res.cut)}
        out["scenario"] = sequence_to_dict(res.sequence)
        out["sources"] = self.sources()
        out["abilities"] = self.abilities()
        out["rulings"] = list(REACTION_RULINGS + SEQUENCE_RULINGS)
        return out

    def to_rows(self) -> Rows:
        """Long table: quantity, outcome, probability."""
        res = self.result
        rows: list[dict[str, Cell]] = [{"quantity": "attacks_to_kill", "outcome": str(n), "probability": float(p)} for n, p in res.kills.items()]
        rows += [{"quantity": q, "outcome": "yes", "probability": float(getattr(res, q))}
                 for q in ("killed", "party_killed", "beyond_cap", "cut")]
        for hero in self.heroes():
            rows += [{"quantity": f"{hero['name']} {q}", "outcome": "yes", "probability": hero[q]}
                     for q in ("makes_the_kill", "killed")]
        return Rows(_COLUMNS, tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable report for the command line."""
        res, seq = self.result, self.result.sequence
        lines = [seq.title, "PARTY (attacking in this order):"]
        lines += [f"  {i}. {_hero_line(h, c)}; attack {_card_line(c)}" for i, (h, c) in enumerate(seq.party, 1)]
        lines.append(f"TARGET: {_monster_line(seq.target)}; Payback reaches: {'yes' if seq.payback_reaches else 'no'}"
                     f"{'' if seq.opponent_attacks else ' (opponent never attacks)'}")
        followed = (f"{res.followed} followed" if res.followed < seq.max_attacks else "all followed")
        lines.append(f"ATTACKS TO KILL (cap {seq.max_attacks}, {followed}; stop once <= {float(SETTLED):.0e} undecided):")
        lines.append(f"  {_cells(res.kills)}")
        mean = res.mean_attacks_to_kill()
        lines += [f"  killed within the cap          {fmt_percent(res.killed):>8}",
                  f"  every hero killed first        {fmt_percent(res.party_killed):>8}",
                  f"  undecided beyond the cap       {float(res.beyond_cap):.2e}",
                  f"  mean attacks (when killed)     {'-' if mean is None else f'{float(mean):.3f}'}"]
        for hero in self.heroes():
            lines.append(f"  {hero['name']}: deals the killing Wound {fmt_percent(hero['makes_the_kill'])} "
                         f"(expected Reward {hero['expected_reward']:.3f} coins), killed {fmt_percent(hero['killed'])}")
        top = self.headline()
        lines += (["HEADLINE: " + line if i == 0 else line for i, line in enumerate(top.text_lines())] if top
                  else ["HEADLINE: the Monster is never killed within the cap"])
        lines += _closing_lines(REACTION_RULINGS + SEQUENCE_RULINGS, self.sources(), self.abilities(), res.cut)
        return "\n".join(line for line in lines if line) + "\n"
