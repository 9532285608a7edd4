"""How a forecast plays a Kampfwerte fight (the kit's ``Tactics``; the rules stay the engine's).

Every attack is a manoeuvre whose damage and defence the GM gives in the data ``prognose``
(``manöver``, ``schaden``, ``abwehr``): a figure uses the first manoeuvre of its list whose AD it
still has; no positions, reactions or movement. Told in ``docs/kampfwerte.md`` ("Prognose: die
Taktik").
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...messages import t
from rpgkernel.rules.kit import Action, Fight, Figure, Tactics
from .compact import KampfwerteCompact, covers
from .manoever import eintrag, vorschau
from .prognose import abwehr_von, angriff, gewaehlt, schaden_von
from .settings import EINSTELLUNGEN, KampfwerteError


class KampfwerteTactics(Tactics):
    def check(self, fight: Fight) -> None:
        daten = EINSTELLUNGEN.of(fight.data)
        for figure in fight.combatants.values():
            a = angriff(figure, daten, fight.data)
            if all(eintrag(n, daten).get("finte") for n, _ in a.wahl):
                # "Bei Erfolg hat der nächste Angriff automatisch 6 Erfolge": Finten alone never make it
                raise KampfwerteError(t("kampfwerte.forecast_only_finte", figure=figure.name))

    def action(self, actor: Figure, target: Figure, fight: Fight) -> Action | None:
        daten = EINSTELLUNGEN.of(fight.data)
        a = angriff(actor, daten, fight.data)
        chosen = gewaehlt(actor, a, daten)
        if chosen is None:
            return None
        name, stufe = chosen
        m = eintrag(name, daten)
        options: dict[str, Any] = {"manöver": name, "stufe": stufe}
        schaden, abwehr = schaden_von(m, a), abwehr_von(m, a)
        if schaden is not None:
            options["schaden"] = schaden.expression
        if abwehr is not None and abwehr.rolled(fight.roller):
            options["abgewehrt"] = True
        return Action("manöver", (actor.name,), (target.name,), options)

    def gets_up(self, why: str) -> bool:
        return why == t("kampfwerte.out_niedergeworfen")

    def vitality(self, figure: Figure) -> float:
        return float(figure.current("LP"))

    def threat(self, figure: Figure, fight: Fight) -> float:
        """The mean of its damage times the chance that the manoeuvre it would use now hits and is not
        defended; 0 where it has no AD left for any."""
        daten = EINSTELLUNGEN.of(fight.data)
        a = angriff(figure, daten, fight.data)
        chosen = gewaehlt(figure, a, daten)
        m = eintrag(chosen[0], daten) if chosen is not None else {}
        schaden, abwehr = schaden_von(m, a), abwehr_von(m, a)
        if chosen is None or schaden is None:
            return 0.0
        p = vorschau(figure, [], *chosen, daten=daten)["p_treffer"]
        return schaden.mean * p * (1 - (abwehr.p if abwehr is not None else 0.0))

    def compact(self, figures: Sequence[Figure], data: Mapping[str, Any]) -> KampfwerteCompact | None:
        """The compact model where it covers the fight (``compact.covers``); else None (the procedures)."""
        return KampfwerteCompact(figures, data, self) if covers(figures, data) else None
