"""The %%resolve verbs: ``wagnis`` (the roll, its preview, the open choice) and ``glück`` (taking it)."""

from __future__ import annotations

from rpgkernel.dice import dist
from rpgkernel.messages import Text, t
from rpgkernel.rules.kit import Choice, Effect, Request, Resolution, Verb


def _wagnis(req: Request) -> Resolution:
    """W6 + Mut + WM against the Schwelle; after a miss, Glück may roll the W6 again."""
    figur, wm, schwelle = req.actors[0], req.options.get("wm", 0), req.settings.schwelle
    res = Resolution("wagnis", "wagnis", (figur.name,))
    wurf = req.roller.roll("W6")
    summe = wurf.total + figur.value("mut") + wm
    res.step(t("wagnis.schritt_wurf", wer=figur.name, summe=summe, schwelle=schwelle), "Wagnis", wurf, value=summe)
    if summe < schwelle and figur.current("Glück") > 0:
        if "glück" not in req.decisions:            # first run: the choice stays open
            res.choices.append(Choice("glück", t("wagnis.wahl_glueck", wer=figur.name), (figur.name,)))
            return res
        if req.decisions["glück"]:                  # taken: one point of Glück, the W6 again
            neu = req.roller.roll("W6")
            summe = neu.total + figur.value("mut") + wm
            res.step(t("wagnis.schritt_glueck", wer=figur.name, summe=summe), "Glück", neu, value=summe)
            res.effects.append(Effect(figur.name, resource="Glück", by=-1))
    gelungen = summe >= schwelle
    res.outcome = {"gelungen": gelungen, "summe": summe}
    res.summary = t("wagnis.satz_gelungen" if gelungen else "wagnis.satz_misslungen", wer=figur.name)
    return res


def _wagnis_vorschau(req: Request) -> float:
    """The exact chance, before the dice fall (without Glück)."""
    figur = req.actors[0]
    return dist("W6").p_at_least(req.settings.schwelle - figur.value("mut") - req.options.get("wm", 0))


VERBS = {
    "wagnis": Verb("wagnis", _wagnis, Text("wagnis.hilfe"), ("dare",), options={"wm": "int"}, actors="one",
                   example="wagnis Held wm=1", preview=_wagnis_vorschau, bounds={"wm": (-3, 3)}),
    "glück": Verb("glück", None, Text("wagnis.hilfe_glueck"), ("luck",), actors="one", choice="glück",
                  example="glück Held"),
}
