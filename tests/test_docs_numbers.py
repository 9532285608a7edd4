"""Every number the prose of the docs and the README gives as a result is checked by a test.

A number in a code block is checked where its page's test compares the block with the code's output.
In the prose, each number that reads as a result (a percentage, a decimal, a fraction, "rund"/"etwa"
with a number) is listed here under its page: ``CHECKED`` with the test that recomputes it, ``GIVEN``
with why it is no result (a rule's constant from the seed, an input, an option). A new number in the
prose fails here until it is one or the other; a listed test must exist.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^( *)```.*?^\1```", re.DOTALL | re.MULTILINE)
_RESULT = re.compile(r"\d+(?:[.,]\d+)*\s?%|\b\d+,\d+\b|\b\d+/\d+\b|\b(?:rund|etwa) [\d.,]*\d")
#: a time: a measurement, allowed on a page that names the benchmark it comes from
_TIME = re.compile(r"\s?(?:s\b|ms\b|Sekunden)")

ADZ, MIDGARD, OSR = "tests/rules/adz/test_docs.py", "tests/rules/midgard/test_docs.py", "tests/rules/osr/test_docs.py"
CHECKED = {
    "adz.md": {"0 %": f"{ADZ}::test_the_luck_advice_is_quoted_as_the_code_gives_it",
               "7/27": f"{ADZ}::test_the_luck_advice_is_quoted_as_the_code_gives_it",
               "25,93 %": f"{ADZ}::test_the_luck_advice_is_quoted_as_the_code_gives_it",
               "1,5": "tests/rules/adz/test_krafteinsatz.py::test_the_rounding_is_a_step_the_gm_reads"},
    "midgard.md": {"0 %": f"{MIDGARD}::test_the_grace_advice_is_quoted_as_the_code_gives_it",
                   "55 %": f"{MIDGARD}::test_the_grace_advice_is_quoted_as_the_code_gives_it",
                   "40,00 %": "tests/rules/midgard/test_advice.py::test_a_critical_hit_table_let_stand_or_repeated"},
    "osr.md": {"15/36": f"{OSR}::test_side_initiative_with_the_missile_bonus",
               "1/6": f"{OSR}::test_side_initiative_with_the_missile_bonus",
               "etwa 26": f"{OSR}::test_side_initiative_with_the_missile_bonus",
               "20/30": "tests/rules/osr/test_regeln.py::test_with_rerolled_ties_the_preview_counts_the_final_dice",
               **{n: f"{OSR}::test_the_charge_preview_of_the_doc_is_exact"
                  for n in ("12/20", "60 %", "5,5", "0,6", "3,3", "6/20", "30 %")}},
    "resolve.md": {"0,00 %": "tests/resolve/test_docs.py::test_the_advice_quoted_on_the_page_is_the_codes"},
    "wuerfelsprache.md": {"32 %": "tests/dice/test_docs.py::test_the_examples_of_exact_and_estimated",
                          "0,6 %": "tests/dice/test_docs.py::test_the_examples_of_exact_and_estimated"},
    "kampagne.md": {"58,33 %": "tests/browser/test_phone.py::test_a_roll_answers_beside_its_form_as_a_card"},
}
GIVEN = {
    "adz.md": {"etwa 30": "the seed's example of a GM's estimate", "1/4": "the seed's reaction rule",
               "1/2": "the seed's reaction rule"},
    "midgard.md": {"0 %": "a roll let stand that failed", "100 %": "a roll let stand", "0,5": "a monster's "
                   "AP supplement from the GM's bestiary", "2/3": "the house rules' share of FP as EP"},
    "osr.md": {"9/10": "the seed's concealment steps", "90 %": "the seed's cover steps",
               "etwa 1": "a hit-dice value (1−2) as the GM writes it"},
    "kampfwerte.md": {"8/9": "the seed's parry thresholds 8/9/0", "2,1": "a hex field (2,1)", "4,3": "a hex field (4,3)"},
    "prognose.md": {"1,96": "the 95 % quantile of the normal distribution", "16/30": "a figure's LP/AP",
                    "14/25": "a figure's LP/AP", "1,5": "the machine's load during a benchmark run",
                    "rund 35": "the outcomes of an AdZ turn, counted in a profile of benchmarks/forecast.py",
                    **dict.fromkeys(("rund 410.000", "rund 20.000", "rund 10.000", "0,131", "0,010",
                                     "1,4 %", "0,5 %", "0,6 %"),
                                    "counted in a run of benchmarks/forecast.py (sections 4, 2, 5)")},
    "README.md": {"1 %": "the precision asked for"},
    "widgets.md": {"1 %": "a precision offered", "2 %": "a precision offered", "5 %": "a precision offered",
                   "4/4": "a resource bar's label"},
}


def results(page: Path) -> set[str]:
    """The numbers the page's prose gives as results (code blocks and inline code left out; times too,
    where the page names the benchmark that measures them)."""
    text = page.read_text(encoding="utf-8")
    prose = re.sub(r"`[^`\n]*`", "", _BLOCK.sub("", text))
    timed = "benchmarks/" in text
    return {m.group(0).replace("\u00a0", " ") for m in _RESULT.finditer(prose)
            if not (timed and _TIME.match(prose, m.end()))}


def in_blocks(page: Path, number: str) -> bool:
    return any(number in m.group(0) for m in _BLOCK.finditer(page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_number_in_the_prose_is_checked_or_given(page):
    listed = CHECKED.get(page.name, {}).keys() | GIVEN.get(page.name, {}).keys()
    unlisted = sorted(n for n in results(page) if n not in listed and not in_blocks(page, n))
    assert unlisted == [], f"{page.name}: numbers no test checks"


def test_every_named_check_exists():
    for numbers in CHECKED.values():
        for node in numbers.values():
            path, name = node.split("::")
            assert re.search(rf"^def {name}\(", (ROOT / path).read_text(encoding="utf-8"), re.MULTILINE), node


def test_every_listed_number_still_stands_in_its_page():
    for page in PAGES:
        found = results(page)
        for number in CHECKED.get(page.name, {}).keys() | GIVEN.get(page.name, {}).keys():
            assert number in found, f"{page.name}: {number!r} is listed but no longer in the prose"
