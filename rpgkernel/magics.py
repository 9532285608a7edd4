"""IPython magics: a thin layer that parses the line, calls the engine, shows the result.

``roll_line`` and ``rpg_line`` are plain functions, testable without a
running kernel; ``register`` binds them to a shell as ``%roll`` and ``%rpg``
with IPython's ``{var}``/``$var`` expansion switched off (braces belong to
the dice language; notebook variables are written ``@name``).
"""

from __future__ import annotations

import difflib
import html
from typing import Callable, Mapping

from IPython.core.magic import no_var_expand

from . import messages, rules, session
from .dice import limits
from .dice.exact import dist
from .dice.roll import roll, roll_many
from .errors import RpgError
from .messages import t
from .render import ErrorBox, style

_ROLL_OPTIONS = {
    "--seed": "seed", "-n": "anzahl", "--anzahl": "anzahl", "--count": "anzahl",
    "--vorschau": "vorschau", "--preview": "vorschau",
    "--würfel": "würfel", "--wuerfel": "würfel", "--dice": "würfel",
}
_FLAGS = {"vorschau"}


def _options(line: str, known: Mapping[str, str], usage: str) -> tuple[dict[str, str | bool], list[str]]:
    """Split a magic line into options and the remaining words."""
    opts: dict[str, str | bool] = {}
    rest: list[str] = []
    words = line.split()
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, value = word.partition("=")
        if name in known:
            key = known[name]
            if key in _FLAGS:
                opts[key] = True
            elif eq:
                opts[key] = value
            elif i + 1 < len(words):
                i += 1
                opts[key] = words[i]
            else:
                raise RpgError(t("magic.missing_value", option=name) + "\n" + t("magic.usage", usage=usage))
        elif word.startswith("--"):
            raise RpgError(t("magic.bad_option", option=name) + "\n" + t("magic.usage", usage=usage))
        else:
            rest.append(word)
        i += 1
    return opts, rest


def _int(opts: dict, key: str, option: str, expected: str | None = None) -> int | None:
    if key not in opts:
        return None
    try:
        return int(str(opts[key]))
    except ValueError:
        raise RpgError(t("magic.bad_value", option=option, value=opts[key],
                         expected=expected or t("magic.expected_int"))) from None


_ROLL_USAGE = "%roll [--seed N] [-n ANZAHL] [--vorschau] [--würfel 6,2,5] AUSDRUCK"


def roll_line(line: str, user_ns: Mapping[str, object] | None = None):
    """Run one ``%roll`` line: a ``Roll``, ``Rolls`` (``-n``) or ``Dist`` (``--vorschau``)."""
    opts, words = _options(line, _ROLL_OPTIONS, _ROLL_USAGE)
    expr = " ".join(words)
    if not expr:
        raise RpgError(t("magic.no_expression"))
    variables = user_ns if user_ns is not None else {}
    if opts.get("vorschau"):
        return dist(expr, variables)
    seed = _int(opts, "seed", "--seed")
    count = _int(opts, "anzahl", "-n/--anzahl", t("magic.count_range", max=limits.MAX_ROLLS))
    given = None
    if "würfel" in opts:
        try:
            given = [int(v) for v in str(opts["würfel"]).replace(";", ",").split(",") if v.strip()]
        except ValueError:
            raise RpgError(t("magic.bad_value", option="--würfel", value=opts["würfel"],
                             expected=t("magic.expected_dice"))) from None
    if count is not None:
        if not 1 <= count <= limits.MAX_ROLLS:
            raise RpgError(t("magic.bad_value", option="-n/--anzahl", value=count,
                             expected=t("magic.count_range", max=limits.MAX_ROLLS)))
        return roll_many(expr, count, seed=seed, dice=given, variables=variables)
    return roll(expr, seed=seed, dice=given, variables=variables)


roll_line.__doc__ = """Würfeln mit deutscher oder englischer Notation.

Aufruf::

    %roll [--seed N] [-n ANZAHL] [--vorschau] [--würfel 6,2,5] AUSDRUCK

Zeigt jeden Würfel (verworfene durchgestrichen), das Ergebnis, die exakte
Wahrscheinlichkeit für dieses Ergebnis oder mehr und die ganze Verteilung
als Diagramm. Gibt den Wurf zurück: ``r = %roll 3W6``.

Beispiele::

    %roll 3W6+2                 # drei W6 plus zwei
    %roll 4W6kh3                # vier W6, die drei höchsten zählen
    %roll {W8,W4,2W6}kh1        # gemischter Pool, der höchste zählt
    %roll 7W6>=5                # Erfolge zählen: jeder Würfel mit 5 oder 6
    %roll max(0, W8-2)          # nie unter null (z. B. nach Rüstung)
    %roll W20+@bonus            # Notebook-Variable bonus = 3
    %roll -n 5 W%               # fünf Prozentwürfe
    %roll --vorschau 2W6        # nur die Verteilung, kein Wurf
    %roll --würfel 6,2,5 3W6    # Ergebnisse echter Würfel eintragen
    %roll --seed 7 3W6          # wiederholbarer Wurf

Optionen (englisch: --count, --preview, --dice):
  --seed N        Startwert nur für diesen Wurf
  -n, --anzahl N  N Würfe auf einmal
  --vorschau      exakte Verteilung ohne zu würfeln
  --würfel LISTE  gegebene Würfelergebnisse in Wurfreihenfolge
                  (auch --wuerfel)

Die Würfelsprache ist in docs/wuerfelsprache.md beschrieben.
"""


_RPG_OPTIONS = {
    "--seed": "seed", "--kampagne": "kampagne", "--campaign": "kampagne",
    "--sprache": "sprache", "--language": "sprache",
}
_RPG_USAGE = "%rpg [REGELWERK] [--seed N] [--sprache de] [--kampagne DATEI]"


class Status:
    """What ``%rpg`` shows: the session's settings and the rulesets."""

    def __init__(self, s: session.Session) -> None:
        self.rows = [
            (t("rpg.ruleset"), s.ruleset or t("rpg.ruleset_none")),
            (t("rpg.seed"), t("rpg.seed_none") if s.seed is None else str(s.seed)),
            (t("rpg.campaign"), s.campaign or t("rpg.campaign_none")),
            (t("rpg.language"), messages.language()),
        ]
        self.rulesets = [(key, rules.RULESETS[key],
                          t("rpg.implemented") if key in rules.IMPLEMENTED else t("rpg.not_implemented"))
                         for key in rules.rulesets()]

    def __repr__(self) -> str:
        lines = [f"{k}: {v}" for k, v in self.rows]
        lines.append(t("rpg.rulesets") + ":")
        lines += [f"  {key:<12} {title} – {state}" for key, title, state in self.rulesets]
        return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        rows = "".join(f'<tr><th style="text-align:left">{html.escape(k)}</th><td style="text-align:left">'
                       f"{html.escape(v)}</td></tr>" for k, v in self.rows)
        rs = "".join(f'<tr><td style="text-align:left"><code>{html.escape(key)}</code></td>'
                     f'<td style="text-align:left">{html.escape(title)}</td>'
                     f'<td style="text-align:left">{html.escape(state)}</td></tr>'
                     for key, title, state in self.rulesets)
        body = (f'<div class="rpgk-card"><div class="rpgk-head">{html.escape(t("rpg.status_title"))}</div>'
                f'<table class="rpgk-table">{rows}</table>'
                f'<div class="rpgk-head">{html.escape(t("rpg.rulesets"))}</div>'
                f'<table class="rpgk-table">{rs}</table></div>')
        return {"text/plain": repr(self), "text/html": style() + body}


def rpg_line(line: str) -> Status:
    """Set the session's ruleset, seed and language; show the status."""
    opts, words = _options(line, _RPG_OPTIONS, _RPG_USAGE)
    s = session.current()
    if len(words) > 1:
        raise RpgError(t("magic.usage", usage=_RPG_USAGE))
    if "kampagne" in opts:
        raise RpgError(t("rpg.campaign_unavailable"))
    if words:
        key = words[0].lower()
        if key not in rules.RULESETS:
            close = difflib.get_close_matches(key, rules.rulesets(), n=1)
            msg = t("rpg.unknown_ruleset", key=words[0], known=", ".join(rules.rulesets()))
            raise RpgError(msg + ("\n" + t("suggest.die", suggestion=close[0]) if close else ""))
        s.ruleset = key
    if "sprache" in opts:
        lang = str(opts["sprache"])
        if lang not in messages.languages():
            raise RpgError(t("rpg.unknown_language", lang=lang, known=", ".join(messages.languages())))
        messages.set_language(lang)
    if "seed" in opts:
        s.reseed(_int(opts, "seed", "--seed"))
    return Status(s)


rpg_line.__doc__ = """Die Sitzung einstellen: Regelwerk, Startwert, Sprache.

Aufruf::

    %rpg [REGELWERK] [--seed N] [--sprache de]

Ohne Argumente zeigt %rpg die Einstellungen und die Regelwerke
(adz, bastionland, kampfwerte, midgard, osr) mit ihrem Stand.

Beispiele::

    %rpg                    # Stand anzeigen
    %rpg --seed 42          # alle folgenden Würfe wiederholbar
    %rpg bastionland        # Regelwerk wählen
"""


def _guarded(func: Callable[[str], object], doc: str | None) -> Callable[[str], object]:
    """The magic for ``func``: user errors become a German box, not a traceback."""
    def magic(line: str) -> object:
        try:
            return func(line)
        except RpgError as err:
            from IPython.display import display
            display(ErrorBox(err))
            return None
    magic.__doc__ = doc
    return no_var_expand(magic)


def register(ipython) -> None:  # noqa: ANN001
    """Bind ``%roll`` and ``%rpg`` to an IPython shell."""
    ipython.register_magic_function(
        _guarded(lambda line: roll_line(line, ipython.user_ns), roll_line.__doc__), "line", "roll")
    ipython.register_magic_function(_guarded(rpg_line, rpg_line.__doc__), "line", "rpg")


def unregister(ipython) -> None:  # noqa: ANN001
    """Remove the magics again."""
    for name in ("roll", "rpg"):
        ipython.magics_manager.magics["line"].pop(name, None)
