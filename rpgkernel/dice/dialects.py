"""Where other dice dialects read an expression differently, and what can never happen: one line each.

The language picks one reading of every text that Roll20, Foundry VTT, d20 (Avrae) or
AnyDice read differently (``docs/wuerfelsprache.md``, "Andere Schreibweisen"); ``hints``
names the other reading with its spelling in this language, and warns where a comparison
can never (or always) hold for a die, and where an explosion without a cap was bounded.
The card of a roll shows them (``Roll.hints``).
"""

from __future__ import annotations

from functools import lru_cache

from ..messages import language, t
from .nodes import Chain, Die, Label, Node, Paren, Pool, Selector, notation, walk
from .parser import _DIE, _TOKEN

_STRICT = {">": ">=", "<": "<="}  # Roll20's compare points include the number: its > is our >=


def hints(text: str, node: Node) -> tuple[str, ...]:
    """The hints and warnings for ``node``, read from ``text``, in the language of the moment."""
    return _hints(text, node, language())


@lru_cache(maxsize=512)
def _hints(text: str, node: Node, _language: str) -> tuple[str, ...]:
    out: list[str] = []
    toks = _TOKEN.findall(text)
    for i, tok in enumerate(toks[:-1]):
        after = toks[i + 1]
        if tok in _DIE and after == "%" and tok.lower() == "d":
            out.append(t("hint.percent"))
        elif tok in ("k", "K") and after.isdigit():
            out.append(t("hint.keep", n=after))
        elif tok == "!" and after.isdigit() and (i == 0 or toks[i - 1] != "!"):
            out.append(t("hint.explode_cap", n=after))
    for part in walk(node):
        if type(part) is Pool:
            out += _pool_hints(part)
    out += _summed_count(node)
    return tuple(dict.fromkeys(out))


def _pool_hints(pool: Pool) -> list[str]:
    out = []
    if pool.braces and pool.keep is not None and any(g.count > 1 for g in pool.groups):
        items = ", ".join(f"{g.count if g.count > 1 else ''}{g.die.notation()}" for g in pool.groups)
        out.append(t("hint.pool_sums", sums=f"({items})k{pool.keep[0]}{pool.keep[1]}"))
    dice = {g.die for g in pool.groups}
    warnings = _threshold(pool, dice, pool.count) if pool.count is not None else []
    for sel in (pool.count, pool.fail):
        if sel is not None and sel.op in _STRICT and not warnings:
            out.append(t("hint.inclusive", ours=str(sel), theirs=f"{_STRICT[sel.op]}{sel.value}"))
    for die in dice:
        for sel in (die.reroll, die.explode_on):
            if sel is not None and sel.op in _STRICT:
                out.append(t("hint.inclusive", ours=str(sel), theirs=f"{_STRICT[sel.op]}{sel.value}"))
        if die.bounded and die.explode:
            out.append(t("hint.bounded", die=die.notation(), n=die.explode))
    return out + warnings


def _threshold(pool: Pool, dice: set[Die], sel: Selector) -> list[str]:
    """A warning where no die (or every die) of the pool can satisfy the count's comparison."""
    hits = [any(sel(v) for v in range(*_span(die))) for die in dice]
    misses = [any(not sel(v) for v in range(*_span(die))) for die in dice]
    if not any(hits):
        whole = notation(pool._replace(count=None, fail=None))
        return [t("hint.never", sel=str(sel), total=f"({whole}){sel.op if sel.op != '=' else '=='}{sel.value}")]
    if not any(misses):
        return [t("hint.always", sel=str(sel), n=pool.keep[1] if pool.keep is not None else pool.size)]
    return []


def _span(die: Die) -> tuple[int, int]:
    lo, hi = die.value_range()
    return lo, hi + 1


def _summed_count(node: Node) -> list[str]:
    """A counting pool at the end of a sum (``5+W20>=15``): d20 compares the whole sum."""
    while isinstance(node, (Paren, Label)):
        node = node[0]
    if type(node) is not Chain or type(node.terms[-1]) is not Pool or node.terms[-1].count is None:
        return []
    last = node.terms[-1]
    sel = last.count
    assert type(last) is Pool and sel is not None   # as checked above
    whole = notation(node._replace(terms=node.terms[:-1] + (last._replace(count=None, fail=None),)))
    return [t("hint.summed", sel=str(sel), total=f"({whole}){sel.op if sel.op != '=' else '=='}{sel.value}")]
