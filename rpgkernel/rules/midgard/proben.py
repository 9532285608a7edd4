"""EW, WW and PW as procedures, with previews and divine grace (seed 000).

Seed sections: "Die Sinne" (senses as skills with +8, the sixth sense by
Zaubertalent replacing Gefahrensinn), "Lernen von Fertigkeiten" (WM below
the minimum), "Neue Regelung der Göttlichen Gnade"; the basic rolls are the
documented defaults of ``core``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...dice import Roll, Roller
from ...messages import t
from rpgkernel.rules.kit import Figure, Resolution, clauses
from .core import Grundregeln, MidgardError, ew_gelingt, kritisch, p_ew, p_pw, p_ww, ww_gelingt
from .settings import EINSTELLUNGEN, Einstellungen
from .gnade import Offen, Wurfkette, gelingen
from .kritisch import tabelle_satz, tabelle_wuerfeln
from .lernen import RULE as RULE_LERNEN
from .lernen import mindest_wm
from .sheet import attribut, eintraege, feld
from .tabellen import zeile

SINNE = ("Sehen", "Hören", "Riechen", "Schmecken", "Tasten")
SINN_STANDARD = 8                  # Die Sinne: der Standarderfolgswert ist +8
SECHSTER_SINN = "Sechster Sinn"
ERSETZT = "Gefahrensinn"           # entfällt: der sechste Sinn ersetzt ihn
GRUND = "Grundwürfe (Vorgabe)"
RULE_SINNE = "Die Sinne"


def erfolgswert(figure: Figure, fertigkeit: str, cfg: Einstellungen) -> tuple[int, str, list[str]]:
    """The Erfolgswert of a skill or sense: (value, the skill's name, notes for the steps)."""
    notes = []
    wanted = fertigkeit.strip()
    if wanted.lower() == ERSETZT.lower():
        notes.append(t("midgard.sixth_replaces"))
        wanted = SECHSTER_SINN
    listed = eintraege(figure, "fertigkeiten").get(wanted.lower())
    if listed is not None:
        return listed.wert, listed.name, notes
    sense = next((s for s in SINNE if s.lower() == wanted.lower()), None)
    if sense is not None:
        notes.append(t("midgard.sense_default", sense=sense, value=SINN_STANDARD))
        return SINN_STANDARD, sense, notes
    if wanted.lower() == SECHSTER_SINN.lower():
        zt = attribut(figure, "zt")
        value = zeile(cfg.tabellen.teil("sechster_sinn"), zt)["wert"]
        notes.append(t("midgard.sixth_sense", zt=zt, value=value))
        return value, SECHSTER_SINN, notes
    known = [e.name for e in eintraege(figure, "fertigkeiten").values()] + list(SINNE) + [SECHSTER_SINN]
    raise MidgardError(t("midgard.unknown_skill_of", figure=figure.name, skill=fertigkeit, known=", ".join(known)))


def _krit_text(face: int, regeln: Grundregeln) -> str:
    krit = kritisch(face, regeln)
    return f" ({t(_KRIT[krit])})" if krit else ""


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


_KRIT = {"kritischer Erfolg": "midgard.satz.krit_erfolg", "kritischer Fehler": "midgard.satz.krit_fehler"}


def wurf_satz(who: str, label: str, ok: bool, total: int, krit: str | None = None, gegen: int | None = None) -> str:
    """The clause of an EW, WW or PW: "Marvelus besteht den EW: Balancieren (23)"."""
    wert = (t("midgard.satz.gegen", total=total, gegen=gegen) if gegen is not None else
            t("midgard.satz.wert", total=total))
    if krit:
        wert = t("midgard.satz.mit_krit", wert=wert, krit=t(_KRIT[krit]))
    return t("midgard.satz.besteht" if ok else "midgard.satz.scheitert", figure=who, label=label, wert=wert)


def ew_satz(who: str, label: str, roll: Roll, wert: int, wm: int, regeln: Grundregeln) -> str:
    total = roll.total + wert + wm
    return wurf_satz(who, label, ew_gelingt(roll.total, total, regeln), total, kritisch(roll.total, regeln))


def ww_satz(who: str, label: str, roll: Roll, wert: int, wm: int, gegen: int, regeln: Grundregeln) -> str:
    total = roll.total + wert + wm
    return wurf_satz(who, label, ww_gelingt(roll.total, total, gegen, regeln), total, kritisch(roll.total, regeln),
                     gegen)


def ew_text(who: str, label: str, roll: Roll, wert: int, wm: int, regeln: Grundregeln) -> str:
    total = roll.total + wert + wm
    ok = ew_gelingt(roll.total, total, regeln)
    return t("midgard.ew", figure=who, what=label, face=roll.total, value=_signed(wert),
             wm=f" WM {_signed(wm)}" if wm else "", total=total, need=regeln.mindestwurf,
             result=t("midgard.success" if ok else "midgard.failure") + _krit_text(roll.total, regeln))


def ww_text(who: str, label: str, roll: Roll, wert: int, wm: int, gegen: int, regeln: Grundregeln) -> str:
    total = roll.total + wert + wm
    ok = ww_gelingt(roll.total, total, gegen, regeln)
    return t("midgard.ww", figure=who, what=label, face=roll.total, value=_signed(wert),
             wm=f" WM {_signed(wm)}" if wm else "", total=total, against=gegen,
             result=t("midgard.success" if ok else "midgard.failure") + _krit_text(roll.total, regeln))


def _p_erfolg(label: str, p: float) -> dict[str, float]:
    """A roll's preview: P(``label`` succeeds)."""
    return {t("midgard.p_success", what=label): p}


def _ew_wert(figure: Figure, fertigkeit: str | None, wert: int | None, wm: int,
             cfg: Einstellungen) -> tuple[str, int, int, list[tuple[str, str]]]:
    """An EW's label, Erfolgswert and WM (with a skill's WM below its minimum), and the notes on
    them as (text, rule)."""
    label = t("midgard.ew_label", what=fertigkeit or t("midgard.value"))
    notes = []
    if wert is None:
        if not fertigkeit:
            raise MidgardError(t("midgard.ew_needs_value"))
        wert, skill, senses = erfolgswert(figure, fertigkeit, cfg)
        label = t("midgard.ew_label", what=skill)
        notes += [(note, RULE_SINNE) for note in senses]
        extra, why = mindest_wm(figure, skill, cfg)
        if extra:
            notes.append((why, RULE_LERNEN))
            wm += extra
    return label, wert, wm, notes


def ew_vorschau(figure: Figure, *, fertigkeit: str | None = None, wert: int | None = None, wm: int = 0,
                cfg: Einstellungen | None = None) -> dict[str, float]:
    """The preview of ``ew``, exact: P(EW succeeds)."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    label, wert, wm, _ = _ew_wert(figure, fertigkeit, wert, wm, cfg)
    return _p_erfolg(label, p_ew(wert + wm, cfg.regeln))


def ew(figure: Figure, roller: Roller | None, *, fertigkeit: str | None = None, wert: int | None = None,
       wm: int = 0, decisions: Mapping[str, Sequence[Mapping[str, Any]]] | None = None, ohne_gnade: bool = False,
       cfg: Einstellungen | None = None) -> Resolution:
    """EW: W20 + Erfolgswert + WM against 20 (basic rolls; Die Sinne; Lernen von Fertigkeiten).

    The Erfolgswert is ``wert`` or the skill's (``fertigkeit``: the sheet's
    ``fertigkeiten``, a sense at +8, the sixth sense from the GM's table).
    Below a skill's minimum attribute its WM is added. Without a roller
    only the preview is computed (``ew_vorschau``).
    """
    cfg = cfg or EINSTELLUNGEN.defaults()
    who = figure.name
    res = Resolution("midgard", "ew", (who,))
    label, wert, wm, notes = _ew_wert(figure, fertigkeit, wert, wm, cfg)
    for note, rule in notes:
        res.step(note, rule)
    res.preview = _p_erfolg(label, p_ew(wert + wm, cfg.regeln))
    if roller is None:
        return res
    chain = Wurfkette(res, roller, decisions or {}, {who: figure}, ohne_gnade)
    try:
        roll = chain.wurf("W20", label, [who], GRUND, lambda r: ew_text(who, label, r, wert, wm, cfg.regeln),
                          lambda r: ew_satz(who, label, r, wert, wm, cfg.regeln),
                          gelingen(label, who, lambda face: ew_gelingt(face, face + wert + wm, cfg.regeln)))
        krit = kritisch(roll.total, cfg.regeln)
        row = krit and tabelle_wuerfeln(chain, cfg, "erfolg" if krit == "kritischer Erfolg" else "fehler", who,
                                        [who])
    except Offen:
        return res
    total = roll.total + wert + wm
    res.outcome = {"erfolg": ew_gelingt(roll.total, total, cfg.regeln), "wurf": roll.total, "gesamt": total,
                   "kritisch": krit}
    if row:
        res.outcome["kritische_tabelle"] = row
    res.effects += chain.effekte()
    res.summary = clauses([ew_satz(who, label, roll, wert, wm, cfg.regeln), tabelle_satz(row) if row else ""])
    return res


WW_ARTEN = {"abwehr": "Abwehr", "resistenz": "Resistenz"}


def _ww_wert(figure: Figure, art: str, wert: int | None) -> tuple[str, int, str]:
    """A WW's kind (abwehr, resistenz), its value (the sheet's unless ``wert`` is given) and label."""
    key = art.lower()
    if key not in WW_ARTEN:
        raise MidgardError(t("midgard.bad_ww", value=art, known=", ".join(WW_ARTEN)))
    return key, feld(figure, key) if wert is None else wert, t("midgard.ww_label", what=WW_ARTEN[key])


def ww_vorschau(figure: Figure, *, gegen: int, art: str = "abwehr", wert: int | None = None, wm: int = 0,
                cfg: Einstellungen | None = None) -> dict[str, float]:
    """The preview of ``ww``, exact: P(WW succeeds)."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    _, wert, label = _ww_wert(figure, art, wert)
    return _p_erfolg(label, p_ww(wert + wm, gegen, cfg.regeln))


def ww(figure: Figure, roller: Roller | None, *, gegen: int, art: str = "abwehr",
       wert: int | None = None, wm: int = 0, decisions: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
       ohne_gnade: bool = False, cfg: Einstellungen | None = None) -> Resolution:
    """WW: W20 + value + WM, succeeds at the opposing EW's total ``gegen`` or more (basic rolls).

    ``art``: abwehr or resistenz (the sheet's value unless ``wert`` is given). Without a roller
    only the preview (``ww_vorschau``).
    """
    cfg = cfg or EINSTELLUNGEN.defaults()
    key, wert, label = _ww_wert(figure, art, wert)
    who = figure.name
    res = Resolution("midgard", "ww", (who,))
    res.preview = _p_erfolg(label, p_ww(wert + wm, gegen, cfg.regeln))
    if roller is None:
        return res
    chain = Wurfkette(res, roller, decisions or {}, {who: figure}, ohne_gnade)
    try:
        roll = chain.wurf("W20", label, [who], GRUND, lambda r: ww_text(who, label, r, wert, wm, gegen, cfg.regeln),
                          lambda r: ww_satz(who, label, r, wert, wm, gegen, cfg.regeln),
                          gelingen(label, who, lambda face: ww_gelingt(face, face + wert + wm, gegen, cfg.regeln)))
        krit = kritisch(roll.total, cfg.regeln)
        row = (tabelle_wuerfeln(chain, cfg, "fehler_abwehr", who, [who])
               if krit == "kritischer Fehler" and key == "abwehr" else None)
    except Offen:
        return res
    total = roll.total + wert + wm
    res.outcome = {"erfolg": ww_gelingt(roll.total, total, gegen, cfg.regeln), "wurf": roll.total,
                   "gesamt": total, "gegen": gegen, "kritisch": krit}
    if row:
        res.outcome["kritische_tabelle"] = row
    res.effects += chain.effekte()
    res.summary = clauses([ww_satz(who, label, roll, wert, wm, gegen, cfg.regeln), tabelle_satz(row) if row else ""])
    return res


def _pw_wert(figure: Figure, eigenschaft: str, wm: int) -> tuple[int, str]:
    """A PW's value (the attribute + WM) and label."""
    return attribut(figure, eigenschaft) + wm, t("midgard.pw_label", what=eigenschaft.capitalize())


def pw_vorschau(figure: Figure, *, eigenschaft: str, wm: int = 0) -> dict[str, float]:
    """The preview of ``pw``, exact: P(PW succeeds)."""
    value, label = _pw_wert(figure, eigenschaft, wm)
    return _p_erfolg(label, p_pw(value))


def pw(figure: Figure, roller: Roller | None, *, eigenschaft: str, wm: int = 0,
       decisions: Mapping[str, Sequence[Mapping[str, Any]]] | None = None, ohne_gnade: bool = False,
       cfg: Einstellungen | None = None) -> Resolution:
    """PW: W% at or under the attribute (+ WM in points), basic rolls; without a roller only the
    preview (``pw_vorschau``)."""
    cfg = cfg or EINSTELLUNGEN.defaults()
    who = figure.name
    value, label = _pw_wert(figure, eigenschaft, wm)
    res = Resolution("midgard", "pw", (who,))
    res.preview = _p_erfolg(label, p_pw(value))
    if roller is None:
        return res
    chain = Wurfkette(res, roller, decisions or {}, {who: figure}, ohne_gnade)

    def text(r: Roll) -> str:
        return t("midgard.pw", figure=who, what=label, face=r.total, value=value,
                 result=t("midgard.success" if r.total <= value else "midgard.failure"))

    def said(r: Roll) -> str:
        return wurf_satz(who, label, r.total <= value, r.total, gegen=value)
    try:
        roll = chain.wurf(cfg.regeln.pw_wuerfel, label, [who], GRUND, text, said,
                          gelingen(label, who, lambda face: face <= value))
    except Offen:
        return res
    res.outcome = {"erfolg": roll.total <= value, "wurf": roll.total, "wert": value}
    res.effects += chain.effekte()
    res.summary = clauses([said(roll)])
    return res
