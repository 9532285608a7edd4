"""Hypothesis strategies for the dice language, generated from the grammar in docs/wuerfelsprache.md.

The grammar block of the docs (``## Grammatik``) is read into rules: EBNF with
``=``, ``|``, ``{ … }`` (repeated), ``[ … ]`` (optional), ``( … )`` and quoted
terminals. ``texts()`` draws expressions from a rule; the names the grammar
leaves open (``zahl``, ``name``) are drawn from ``LEXICAL``. A rule added to
the docs is generated from then on; a new kind of leaf needs an entry in
``LEXICAL`` (and, where it is a word, its spellings in ``spelled``).

On top of the grammar: ``long_chains`` (flat sums and products up to and
beyond the length limit), ``nested`` (nesting up to and beyond the depth
limit, from the ``NESTINGS`` templates), ``mutated`` (tokens dropped,
doubled, swapped or replaced by stray ones) and ``variables`` (the
notebook's ``@name`` values: integers near and beyond the bound,
expressions, wrong types). ``fuzzed`` mixes them all.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Callable

from doc_blocks import page
from hypothesis import strategies as st

from rpgkernel.dice import limits

START = "ausdruck"
NAMES = ["a", "bonus", "big", "wurf", "tief", "falsch", "nix"]  # ``nix`` is never defined


# -- the grammar, read from the docs -----------------------------------------------

def grammar_text() -> str:
    """The code block under the heading "Grammatik" of the dice docs."""
    return page("wuerfelsprache.md").block(after="## Grammatik").text


_EBNF_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[=|{}\[\]()]|[^\W\d][\w]*)', re.UNICODE)


def parse_grammar(text: str) -> dict[str, tuple]:
    """Rules ``name -> node``; a node is ("alt", nodes), ("seq", nodes), ("rep", node), ("opt", node),
    ("term", text) or ("ref", name)."""
    rules: dict[str, tuple] = {}
    for line in text.strip().splitlines():
        if not line.strip():
            continue
        name, _, body = line.partition("=")
        tokens = [m.group(1) for m in _EBNF_TOKEN.finditer(body)]
        node, end = _alternatives(tokens, 0)
        assert end == len(tokens), f"grammar rule {name.strip()!r}: cannot read {tokens[end:]}"
        rules[name.strip()] = node
    return rules


def _alternatives(tokens: list[str], i: int) -> tuple[tuple, int]:
    options = []
    while True:
        node, i = _sequence(tokens, i)
        options.append(node)
        if i < len(tokens) and tokens[i] == "|":
            i += 1
            continue
        return (options[0] if len(options) == 1 else ("alt", tuple(options))), i


_CLOSE = {"{": ("}", "rep"), "[": ("]", "opt"), "(": (")", None)}


def _sequence(tokens: list[str], i: int) -> tuple[tuple, int]:
    items = []
    while i < len(tokens) and tokens[i] not in ("|", ")", "]", "}"):
        tok = tokens[i]
        if tok in _CLOSE:
            close, kind = _CLOSE[tok]
            inner, i = _alternatives(tokens, i + 1)
            assert tokens[i] == close, f"expected {close} in the grammar"
            items.append(inner if kind is None else (kind, inner))
        elif tok.startswith('"'):
            items.append(("term", tok[1:-1]))
        else:
            items.append(("ref", tok))
        i += 1
    return (items[0] if len(items) == 1 else ("seq", tuple(items))), i


RULES = parse_grammar(grammar_text())


def _heights(rules: dict[str, tuple]) -> dict[str, int]:
    """The fewest rule expansions each rule needs to reach terminals only (a fixpoint)."""
    inf = 10**9
    h = {name: inf for name in rules}

    def height(node: tuple) -> int:
        kind = node[0]
        if kind == "term":
            return 0
        if kind == "ref":
            return h.get(node[1], 0)  # a lexical leaf: 0
        if kind in ("rep", "opt"):
            return 0
        if kind == "seq":
            return max(height(n) for n in node[1])
        return min(height(n) for n in node[1])

    changed = True
    while changed:
        changed = False
        for name, node in rules.items():
            new = min(inf, 1 + height(node))
            if new < h[name]:
                h[name], changed = new, True
    return h


HEIGHTS = _heights(RULES)


# -- the leaves ----------------------------------------------------------------------

@cache   # one strategy object, drawn from many times (building it anew for each draw costs more than the draw)
def numbers() -> st.SearchStrategy[str]:
    """Numbers as written: mostly small, often at a limit, sometimes just beyond or absurd."""
    edges = [limits.MAX_DICE, limits.MAX_SIDES, limits.MAX_EXPLODE, limits.MAX_DEPTH, limits.MAX_NUMBER,
             limits.MAX_REROLLS, limits.MAX_ROLLS]
    near = sorted({e + d for e in edges for d in (-1, 0, 1)} | {20, 100, 12, 8, 4, 2, 1, 0})
    return st.one_of(
        st.integers(0, 12).map(str),
        st.integers(0, 12).map(str),
        st.sampled_from(near).map(str),
        st.integers(0, 10**12).map(str),
        st.sampled_from(["007", "0", "00", "9" * 40, "1" + "0" * 18]),
    )


LEXICAL: dict[str, Callable[[], st.SearchStrategy[str]]] = {
    "zahl": numbers,
    "name": cache(lambda: st.sampled_from(NAMES)),
}

NO_SPACE_AFTER = {"@"}  # ``@name`` is one word


@cache
def spelled(term: str) -> st.SearchStrategy[str]:
    """A terminal in any of its spellings: words in any case (``W``, ``w``, ``KH``, ``Max``)."""
    if not term.isalpha():
        return st.just(term)
    return st.sampled_from(sorted({term, term.lower(), term.upper(), term.capitalize(), term.swapcase()}))


@st.composite
def tokens(draw, rule: str = START, depth: int = 6, repeat: int = 3) -> list[str]:
    """The tokens of a text of ``rule``: at most ``depth`` levels of recursion, ``repeat`` repetitions."""
    out: list[str] = []

    def expand(node: tuple, depth: int) -> None:
        kind = node[0]
        if kind == "term":
            out.append(draw(spelled(node[1])))
        elif kind == "ref":
            name = node[1]
            if name in RULES:
                expand(RULES[name], depth - 1)
            else:
                out.append(draw(LEXICAL[name]()))
        elif kind == "seq":
            for n in node[1]:
                expand(n, depth)
        elif kind == "opt":
            if depth > 0 and draw(st.booleans()):
                expand(node[1], depth)
        elif kind == "rep":
            for _ in range(draw(st.integers(0, repeat if depth > 0 else 0))):
                expand(node[1], depth)
        else:
            options = node[1]
            if depth <= 0:  # only the shortest ways out
                least = min(_height(o) for o in options)
                options = [o for o in options if _height(o) == least]
            expand(options[draw(st.integers(0, len(options) - 1))], depth)

    expand(RULES[rule], depth)
    return out


def _height(node: tuple) -> int:
    kind = node[0]
    if kind == "ref":
        return HEIGHTS.get(node[1], 0)
    if kind == "seq":
        return max(_height(n) for n in node[1])
    if kind == "alt":
        return min(_height(n) for n in node[1])
    return 0


@st.composite
def joined(draw, toks: list[str]) -> str:
    """Tokens written without white space, with one space between all, or with any mix."""
    style = draw(st.sampled_from(["", " ", "mixed"]))
    parts = []
    for i, tok in enumerate(toks):
        parts.append(tok)
        if i + 1 < len(toks) and tok not in NO_SPACE_AFTER:
            parts.append(style if style != "mixed" else draw(st.sampled_from(["", " ", "  ", "\t", "\n"])))
    return "".join(parts)


def texts(rule: str = START, depth: int = 6, repeat: int = 3) -> st.SearchStrategy[str]:
    """Texts of a grammar rule, as a user might type them."""
    return tokens(rule, depth, repeat).flatmap(joined)


# -- beyond the grammar: length, depth, stray tokens ------------------------------

@st.composite
def long_chains(draw) -> str:
    """A flat chain of hundreds of operands, up to and just beyond the length limit."""
    operand = draw(st.sampled_from(["1", "W6", "-1", "2W6", "@a", "(1)", "W%", "3"]))
    ops = draw(st.sampled_from(["+", "-", "*", "+-", "*+", "−"]))
    n = draw(st.integers(300, 1000))
    text = operand
    for i in range(n - 1):
        text += ops[i % len(ops)] + operand
    return text[:draw(st.sampled_from([limits.MAX_LENGTH, limits.MAX_LENGTH + 1, len(text)]))]


NESTINGS = ["({})", "-{}", "max({}, 1)", "min(1, {})", "+{}", "(-{})", "max({}, {})"]


@st.composite
def nested(draw) -> str:
    """A text wrapped in nestings up to and just beyond the depth limit."""
    core = draw(texts(depth=3, repeat=1))
    levels = draw(st.integers(limits.MAX_DEPTH - 2, limits.MAX_DEPTH + 2))
    for _ in range(levels):
        template = draw(st.sampled_from(NESTINGS))
        core = template.replace("{}", core, 1).replace("{}", "1")
        if len(core) > limits.MAX_LENGTH:
            break
    return core


STRAYS = ["x", "ä", "k", "K", "\u212a", "1e5", "²", "½", "\u00a0", "\u200b", ",", ")", "(", "{", "}", "!",
          "@", "@@", "r", "rr", "<", ">=", "=", "%", "W", "d", "max", "min(", "0", "-", "*", "/", "9" * 25,
          "🎲", "\n", "&", "<script>"]


@st.composite
def mutated(draw) -> str:
    """A grammar text with one to three tokens dropped, doubled, swapped or replaced by stray ones."""
    toks = draw(tokens(depth=4, repeat=2))
    for _ in range(draw(st.integers(1, 3))):
        if not toks:
            toks = [draw(st.sampled_from(STRAYS))]
            continue
        i = draw(st.integers(0, len(toks) - 1))
        how = draw(st.sampled_from(["drop", "double", "swap", "replace", "insert"]))
        if how == "drop":
            del toks[i]
        elif how == "double":
            toks.insert(i, toks[i])
        elif how == "swap" and i + 1 < len(toks):
            toks[i], toks[i + 1] = toks[i + 1], toks[i]
        elif how == "replace":
            toks[i] = draw(st.sampled_from(STRAYS))
        else:
            toks.insert(i, draw(st.sampled_from(STRAYS)))
    return draw(joined(toks))


def heavy() -> st.SearchStrategy[str]:
    """Pools and products at the size limits: large counts, large dice, explosions, keeping many."""
    counts = st.sampled_from(["", "3", "4", "10", "50", "100", "500", "999", "1000"])
    sides = st.sampled_from([6, 20, 100, 1000, 9999, 10000])
    mods = st.sampled_from(["", "!20", "!3", "r1", "rr1", "rr<{s}", "rr<{s}!20", "r<=2!20"])
    die = st.builds(lambda s, m: f"W{s}{m.format(s=s)}", sides, mods)
    keeps = st.sampled_from(["", "kh1", "kh2", "kh3", "dh1", "dl1", "kl2", ">=5", "kh3>=6"])
    pool = st.builds(lambda c, d, k: f"{c}{d}{k}", counts, die, keeps)
    return st.one_of(
        pool,
        st.lists(pool, min_size=2, max_size=4).map("*".join),
        st.lists(pool, min_size=2, max_size=4).map("+".join),
        st.lists(die, min_size=2, max_size=5).map(lambda items: "{" + ",".join(items) + "}kh2"),
    )


VALUES = ["2W6", "W20+3", "4W6kh3", "{W8,W4,2W6}kh1", "7W6>=5", "W6r1!3", "max(0, W8-2)", "-W4", "(W6)",
          "999W10000!20", "4W10000kh3", "W10000*W10000", "1000W6", "(" * limits.MAX_DEPTH + "1" + ")" * limits.MAX_DEPTH,
          "@a", "3X", "", " ", "W6+", 1.5, None, True, [1, 2]]  # expressions, and what no variable may hold


def variables() -> st.SearchStrategy[dict[str, Any]]:
    """The notebook's values for ``@name``: integers near and beyond the bound, expressions, wrong types."""
    ints = st.sampled_from([limits.MAX_NUMBER, -limits.MAX_NUMBER, limits.MAX_NUMBER + 1, 10**18, -(10**5000),
                            10**5000])
    value = st.one_of(st.integers(-20, 20), st.integers(-20, 20), ints, st.sampled_from(VALUES))
    return st.fixed_dictionaries({n: value for n in NAMES if n != "nix"})


def fuzzed() -> st.SearchStrategy[str]:
    """Every kind of text above, the grammar's most often."""
    return st.one_of(texts(), texts(), texts(depth=9, repeat=4), heavy(), long_chains(), nested(), mutated(),
                     mutated())
