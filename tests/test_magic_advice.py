"""``%%resolve`` in a kernel shows the card at once and the advice's chances of winning when they are
weighed: the same output updated in place (a display handle), from the weighing's thread through the
kernel's loop (here: called at once)."""

from __future__ import annotations

from forecast.test_options import ATTACK, FACES, duel
from IPython.utils.capture import capture_output

from rpgkernel import magic_advice, session
from rpgkernel.forecast import weighing
from rpgkernel.messages import t
from rpgkernel.numerals import percent


def test_the_card_first_then_the_chances_in_place(shell, tmp_path, monkeypatch):
    monkeypatch.setattr(magic_advice, "_kernel_loop", lambda: lambda call: call())
    monkeypatch.chdir(tmp_path)
    session._current = None
    camp = duel(tmp_path / "k.sqlite")
    camp.undo()   # the Söldner's attack taken back: the cell below opens it
    camp.close()
    shell.run_line_magic("rpg", f"bastionland --kampagne {tmp_path / 'k.sqlite'}")
    with capture_output() as out:
        result = shell.run_cell(f"%%resolve --würfel {FACES[0]}\n{ATTACK}")
        state = session.current().campaign.state
        [pid] = state["pending"]
        w = weighing.ask(state, pid)
        assert w is not None and w.wait(120)
    assert result.success and result.result is None   # shown by the handle, not as the cell's value
    first, *updates = [o for o in out.outputs]
    assert t("advice.win_waiting") in first.data["text/plain"]
    assert updates and all(u.metadata == first.metadata for u in updates)
    last = updates[-1].data["text/plain"]
    assert t("advice.win_waiting") not in last
    deny = t("advice.win", p=percent(w.wins["deny", "Ritter", "Deny auf die 7"]))
    assert deny in last and deny in updates[-1].data["text/html"]
    session.current().close_campaign()
    session._current = None


def test_the_cards_weighing_stops_once_the_choice_is_made(shell, tmp_path, monkeypatch):
    """The weighing is held at its start until the next cell has decided the attack: it then weighs nothing."""
    import threading
    monkeypatch.setattr(magic_advice, "_kernel_loop", lambda: lambda call: call())
    go = threading.Event()
    real = weighing.weigh

    def held(*args, **kwargs):
        go.wait(120)
        return real(*args, **kwargs)
    monkeypatch.setattr(weighing, "weigh", held)
    monkeypatch.chdir(tmp_path)
    session._current = None
    camp = duel(tmp_path / "k.sqlite")
    camp.undo()
    camp.close()
    shell.run_line_magic("rpg", f"bastionland --kampagne {tmp_path / 'k.sqlite'}")
    try:
        with capture_output():
            shell.run_cell(f"%%resolve --würfel {FACES[0]}\n{ATTACK}")
            state = session.current().campaign.state
            [pid] = state["pending"]
            w = weighing.ask(state, pid)   # the card's own weighing, held
            deny = next(a for a in state["pending"][pid]["advice"] if a["key"] == "deny")
            lines = next(o["lines"] for o in deny["options"] if o["lines"])
            decided = shell.run_cell("%%resolve --seed 1\n" + "\n".join(lines))
        assert decided.success and pid not in session.current().campaign.state["pending"]
    finally:
        go.set()
    assert w is not None and w.wait(120) and w.stopped and not w.weighed
    session.current().close_campaign()
    session._current = None
