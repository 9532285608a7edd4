"""Character creation and advancement (seed 000: "Kauf der Attribute",
"Neue Regelung der LP", "Auswürfeln des AP-Maximums").

Attributes bought by tier (GM table ``attributkauf``) and rolled within it; LP from the GM table
``lp``; the AP maximum per grade from the race's AP die and the GM table ``ap_fest``. The results
go onto the figure's sheet (an ``Effect`` with ``sheet``).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ...dice import Dist, Roller, dist
from ...messages import t
from rpgkernel.rules.kit import Effect, Figure, Resolution, clauses
from .core import MidgardError
from .settings import EINSTELLUNGEN, Einstellungen
from .sheet import attribut, feld
from .tabellen import GRENZE, Stufe, stufe, zeile

KAUF = ("st", "ge", "ko", "in", "zt")       # Kauf der Attribute: St, Ge, Ko, In und Zt
RULE_KAUF = "Kauf der Attribute"
RULE_LP = "Neue Regelung der LP"
RULE_AP = "Auswürfeln des AP-Maximums"
_AP_DIE = re.compile(r"^W(\d+)([+-]\d+)?$")


def rasse(race: str, cfg: Einstellungen) -> dict[str, Any]:
    row = cfg.rassen.get(race)
    if row is None:
        raise MidgardError(t("midgard.unknown_race", race=race, known=", ".join(cfg.rassen)))
    return row


def _race_of(figure: Figure, given: str | None) -> str:
    return given or feld(figure, "rasse")


def null_stufe(race: str, key: str, cfg: Einstellungen) -> int:
    """The index of the race's 0-cost tier for attribute ``key`` (kept within the GM's tiers)."""
    table = cfg.tabellen.teil("attributkauf")
    index = table["null"][key] + rasse(race, cfg)["stufen"].get(key, 0)
    return max(0, min(index, len(table["stufen"]) - 1))


def spalte(race: str, key: str, wahl: str | int, cfg: Einstellungen) -> int:
    """The column (tiers above the 0-cost tier) a choice means: a signed offset ("+1", -2) or a tier ("96-99")."""
    table = cfg.tabellen.teil("attributkauf")
    text = str(wahl).strip()
    if isinstance(wahl, int) or text[:1] in "+-" or text == "0":
        try:
            return int(text.replace("−", "-"))
        except ValueError:
            raise MidgardError(t("midgard.bad_tier", value=text)) from None
    try:
        wanted = stufe(text)
    except ValueError:
        raise MidgardError(t("midgard.bad_tier", value=text)) from None
    labels = [s.text for s in table["stufen"]]
    if wanted.text not in labels:
        raise MidgardError(t("midgard.unknown_tier", value=text, known=", ".join(labels)))
    return labels.index(wanted.text) - null_stufe(race, key, cfg)


def kauf(race: str, wahl: Mapping[str, str | int], cfg: Einstellungen) -> dict[str, tuple[int, Stufe, int]]:
    """Each attribute's (column, tier, cost), checked against the +/-6 limit and the tiers (natural limit 100)."""
    table = cfg.tabellen.teil("attributkauf")
    unknown = set(wahl) - set(KAUF)
    if unknown:
        raise MidgardError(t("midgard.not_bought", name=min(unknown), known=", ".join(KAUF)))
    out = {}
    for key in KAUF:
        column = spalte(race, key, wahl.get(key, 0), cfg)
        if abs(column) > GRENZE:
            raise MidgardError(t("midgard.beyond_limit", attribute=key.capitalize(), column=column, limit=GRENZE))
        index = null_stufe(race, key, cfg) + column
        if index >= len(table["stufen"]):
            raise MidgardError(t("midgard.above_hundred", attribute=key.capitalize()))
        if index < 0:
            raise MidgardError(t("midgard.below_lowest", attribute=key.capitalize()))
        if column not in table["spalten"]:
            raise MidgardError(t("midgard.no_column", column=column))
        out[key] = (column, table["stufen"][index], table["spalten"][column])
    return out


def _tier_dist(s: Stufe) -> Dist:
    return Dist.const(s.von) if s.von == s.bis else Dist.die(s.bis - s.von + 1) + (s.von - 1)


def _gekauft(figure: Figure, punkte: int, wahl: Mapping[str, str | int], race: str | None,
             cfg: Einstellungen) -> tuple[str, dict[str, tuple[int, Stufe, int]], int]:
    """The race, what ``wahl`` buys (``kauf``) and its total cost, which ``punkte`` must cover."""
    race = _race_of(figure, race)
    bought = kauf(race, wahl, cfg)
    total = sum(cost for _, _, cost in bought.values())
    if total > punkte:
        raise MidgardError(t("midgard.too_expensive", cost=total, points=punkte))
    return race, bought, total


def _stufen_vorschau(bought: Mapping[str, tuple[int, Stufe, int]]) -> dict[str, Dist]:
    return {f"{key.capitalize()} {s.text}": _tier_dist(s).labelled(f"{key.capitalize()} ({s.text})")
            for key, (_, s, _) in bought.items()}


def attributkauf_vorschau(figure: Figure, *, punkte: int, wahl: Mapping[str, str | int], race: str | None = None,
                          cfg: Einstellungen | None = None) -> dict[str, Dist]:
    """The preview of ``attributkauf``, exact: each attribute's value within its tier."""
    return _stufen_vorschau(_gekauft(figure, punkte, wahl, race, cfg or EINSTELLUNGEN.defaults())[1])


def attributkauf(figure: Figure, roller: Roller | None, *, punkte: int, wahl: Mapping[str, str | int],
                 race: str | None = None, cfg: Einstellungen | None = None) -> Resolution:
    """Buy St, Ge, Ko, In and Zt by tier with ``punkte`` points, then roll each within its tier.

    ``wahl``: attribute -> column ("+1", "-2") or tier ("96-99", "100");
    unnamed attributes stay in the 0-cost column. Given dice: St, Ge, Ko,
    In, Zt in this order, one die each whose tier has more than one value.
    Without a roller only the preview (``attributkauf_vorschau``).
    """
    cfg = cfg or EINSTELLUNGEN.defaults()
    race, bought, total = _gekauft(figure, punkte, wahl, race, cfg)
    res = Resolution("midgard", "attributkauf", (figure.name,), preview=_stufen_vorschau(bought))
    table = cfg.tabellen.teil("attributkauf")
    for key, (column, s, cost) in bought.items():
        zero = table["stufen"][null_stufe(race, key, cfg)]
        res.step(t("midgard.tier_bought", attribute=key.capitalize(), race=race, zero=zero.text, column=column,
                   tier=s.text, cost=cost), RULE_KAUF, value=cost)
    res.step(t("midgard.points_spent", cost=total, points=punkte), RULE_KAUF, value=total)
    if roller is None:
        return res
    values = {}
    for key, (_, s, _) in bought.items():
        if s.von == s.bis:
            values[key] = s.von
            continue
        roll = roller.roll(f"W{s.bis - s.von + 1}")
        values[key] = s.von - 1 + roll.total
        res.step(t("midgard.tier_rolled", attribute=key.capitalize(), tier=s.text, face=roll.total,
                   value=values[key]), RULE_KAUF, roll, value=values[key])
    res.outcome = {"rasse": race, "kosten": total, "werte": values}
    res.effects.append(Effect(figure.name, sheet={"rasse": race, **values}))
    res.summary = clauses([t("midgard.satz.attribute", figure=figure.name, rasse=race, werte=", ".join(
        t("midgard.satz.eintrag", was=key.capitalize(), wert=v) for key, v in values.items()))])
    return res


def lp_ausdruck(figure: Figure, race: str, cfg: Einstellungen) -> tuple[str, int, list[str]]:
    """The LP roll "base + W6 + modifier", the change of the AbB, and the steps' texts."""
    table = cfg.tabellen.teil("lp")
    basis = table["basis"]
    notes = []
    if isinstance(basis, dict):
        value = attribut(figure, basis["attribut"])
        base = zeile(basis["werte"], value)["lp"]
        notes.append(t("midgard.lp_base_by", attribute=basis["attribut"].capitalize(), value=value, lp=base))
    else:
        base = basis
        notes.append(t("midgard.lp_base", lp=base))
    abb = 0
    if rasse(race, cfg)["gestalt_abb"]:
        size, shape = feld(figure, "groesse", "mittel"), feld(figure, "gestalt", "normal")
        mod = table["groesse"].get(size, 0) + table["gestalt"].get(shape, 0)
        notes.append(t("midgard.lp_shape", size=size, shape=shape, mod=mod))
        abb = -1 if (size, shape) == ("groß", "breit") else 1 if (size, shape) == ("klein", "schlank") else 0
        if abb:
            notes.append(t("midgard.abb_shape", size=size, shape=shape, abb=abb))
    else:
        mod = table["rassen"].get(race)
        if mod is None:
            raise MidgardError(t("midgard.no_race_lp", race=race))
        notes.append(t("midgard.lp_race", race=race, mod=mod))
    return f"W6+{base + mod}" if base + mod >= 0 else f"W6-{-(base + mod)}", abb, notes


def _lp_vorschau(expr: str) -> Dist:
    return dist(expr).labelled(t("midgard.lp_label"))


def lp_wurf_vorschau(figure: Figure, *, race: str | None = None, cfg: Einstellungen | None = None) -> Dist:
    """The preview of ``lp_wurf``, exact: the distribution of the LP."""
    return _lp_vorschau(lp_ausdruck(figure, _race_of(figure, race), cfg or EINSTELLUNGEN.defaults())[0])


def lp_wurf(figure: Figure, roller: Roller | None, *, race: str | None = None,
            cfg: Einstellungen | None = None) -> Resolution:
    """LP = LP base + 1W6 + modifiers (Neue Regelung der LP); the AbB change for humans by shape.
    Without a roller only the preview (``lp_wurf_vorschau``)."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    race = _race_of(figure, race)
    res = Resolution("midgard", "lp_wurf", (figure.name,))
    expr, abb, notes = lp_ausdruck(figure, race, cfg)
    for note in notes:
        res.step(note, RULE_LP)
    res.preview = _lp_vorschau(expr)
    if roller is None:
        return res
    roll = roller.roll(expr)
    res.step(t("midgard.lp_rolled", expr=expr, lp=roll.total), RULE_LP, roll, value=roll.total)
    res.outcome = {"lp": roll.total, "abb_änderung": abb}
    res.effects.append(Effect(figure.name, sheet={"lp": roll.total, **({"abb": feld(figure, "abb", 0) + abb}
                                                                         if abb else {})}))
    has = (t("midgard.satz.lp_abb", figure=figure.name, lp=roll.total, abb=feld(figure, "abb", 0) + abb) if abb
           else t("midgard.satz.lp", figure=figure.name, lp=roll.total))
    res.summary = clauses([has])
    return res


def ap_ausdruck(race: str, klasse: str, grad: int, von: int, bonus: int, cfg: Einstellungen) -> str:
    """"nW4+n+fixed+bonus": the race's AP die once for each grade above ``von``, the fixed part, the bonus."""
    m = _AP_DIE.match(rasse(race, cfg)["ap_wuerfel"])
    if m is None:
        raise MidgardError(t("midgard.bad_ap_die", race=race, die=rasse(race, cfg)["ap_wuerfel"]))
    sides, plus = int(m.group(1)), int(m.group(2) or 0)
    fixed_table = cfg.tabellen.teil("ap_fest")
    row = fixed_table.get(klasse)
    if row is None:
        raise MidgardError(t("midgard.no_class_ap", klasse=klasse, known=", ".join(fixed_table) or "–"))
    for g in (grad, von) if von else (grad,):
        if g not in row:
            raise MidgardError(t("midgard.no_grade_ap", klasse=klasse, grad=g))
    n = grad - von
    fixed = row[grad] - (row[von] if von else 0)
    parts = [f"{n}W{sides}"] + [f"{n * plus}"] * bool(plus) + [str(fixed)] + [str(bonus)] * bool(bonus)
    return "+".join(parts).replace("+-", "-")


def _ap_formel(figure: Figure, grad: int | None, von: int, race: str | None,
               cfg: Einstellungen) -> tuple[str, int, str, str]:
    """The race, grade and class of an AP roll, and its expression (``ap_ausdruck``)."""
    race = _race_of(figure, race)
    grad = grad or feld(figure, "grad")
    if not 0 <= von < grad:
        raise MidgardError(t("midgard.bad_grades", von=von, grad=grad))
    klasse = feld(figure, "klasse")
    bonus = 0 if von else feld(figure, "ap_bonus", 0)
    return race, grad, klasse, ap_ausdruck(race, klasse, grad, von, bonus, cfg)


def _ap_vorschau(expr: str) -> Dist:
    return dist(expr).labelled(t("midgard.ap_label"))


def ap_wurf_vorschau(figure: Figure, *, grad: int | None = None, von: int = 0, race: str | None = None,
                     cfg: Einstellungen | None = None) -> Dist:
    """The preview of ``ap_wurf``, exact: the distribution of the AP rolled."""
    return _ap_vorschau(_ap_formel(figure, grad, von, race, cfg or EINSTELLUNGEN.defaults())[3])


def ap_wurf(figure: Figure, roller: Roller | None, *, grad: int | None = None, von: int = 0,
            race: str | None = None, cfg: Einstellungen | None = None) -> Resolution:
    """The AP maximum at ``grad`` (Auswürfeln des AP-Maximums); from grade ``von`` on only the new grades.

    The personal AP bonus counts once (not when rising from ``von``). Without a roller only the
    preview (``ap_wurf_vorschau``).
    """
    cfg = cfg or EINSTELLUNGEN.defaults()
    race, grad, klasse, expr = _ap_formel(figure, grad, von, race, cfg)
    res = Resolution("midgard", "ap_wurf", (figure.name,), preview=_ap_vorschau(expr))
    row = rasse(race, cfg)
    res.step(t("midgard.ap_formula", race=race, die=row["ap"], klasse=klasse, grad=grad, expr=expr), RULE_AP)
    if row["ap_zusatz"]:
        res.step(t("midgard.ap_extra", race=race, extra=row["ap_zusatz"]), RULE_AP)
    if roller is None:
        return res
    roll = roller.roll(expr)
    old = feld(figure, "ap", 0) if von else 0
    res.step(t("midgard.ap_rolled", expr=expr, total=roll.total), RULE_AP, roll, value=roll.total)
    res.outcome = {"ap": old + roll.total, "gewürfelt": roll.total}
    res.effects.append(Effect(figure.name, sheet={"ap": old + roll.total, "grad": grad}))
    res.summary = clauses([t("midgard.satz.ap_mehr" if von else "midgard.satz.ap", figure=figure.name, grad=grad,
                               ap=old + roll.total, mehr=roll.total, von=von)])
    return res
