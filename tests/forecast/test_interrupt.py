"""``%rpg prognose`` stopped by an interrupt (Kernel > Interrupt Kernel, Ctrl+C): the first one ends the
forecast between two batches of fights with what was played, marked as stopped; a second one at once,
with a German note; never a traceback. In a shell (the signal sent by the test itself) and in a real
kernel interrupted as JupyterLab does it."""

from __future__ import annotations

import os
import signal

import pytest

from rpgkernel import magic_forecast

from .test_forecast import SÖLDNER
from .test_shown import opened

LONG = "%rpg prognose --seed 2 --weg prozeduren --genauigkeit 0,002"   # thousands of fights


def interrupt_at_progress(monkeypatch, times: int) -> list[int]:
    """SIGINT to this process, ``times`` times, when the forecast first says how far it is."""
    seen: list[int] = []

    def progress(_self, done: int, _planned: int) -> None:
        if not seen:
            for _ in range(times):
                os.kill(os.getpid(), signal.SIGINT)
        seen.append(done)
    monkeypatch.setattr(magic_forecast.Progress, "__call__", progress)
    return seen


def test_an_interrupt_stops_it_with_what_was_played(notebook, tmp_path, monkeypatch):
    c = opened(notebook, tmp_path)
    before = signal.getsignal(signal.SIGINT)
    seen = interrupt_at_progress(monkeypatch, 1)
    shown = notebook.ok(LONG)   # no traceback (Notebook.run), no error box
    f = notebook.value
    assert f.stopped and f.fights == 50 and seen == [50]
    assert "simuliert, abgebrochen nach 50 Kämpfen" in shown[-1].splitlines()[0]
    assert "Abgebrochen nach 50 Kämpfen" in shown[-1]
    same = c.encounter.forecast(n=50, seed=2, weg="prozeduren")
    assert {**f.to_dict(), "stopped": False} == same.to_dict()
    assert signal.getsignal(signal.SIGINT) is before   # the shell's own handler again


def test_a_second_interrupt_stops_it_at_once(notebook, tmp_path, monkeypatch):
    opened(notebook, tmp_path)
    before = signal.getsignal(signal.SIGINT)
    interrupt_at_progress(monkeypatch, 2)
    shown = notebook.ok(LONG)
    assert shown == [magic_forecast.t("forecast.interrupted")] and "sofort abgebrochen" in shown[0]
    assert signal.getsignal(signal.SIGINT) is before


def test_without_an_interrupt_the_shell_keeps_its_handler(notebook, tmp_path):
    opened(notebook, tmp_path)
    before = signal.getsignal(signal.SIGINT)
    notebook.ok("%rpg prognose -n 50 --seed 2 --weg prozeduren")
    assert not notebook.value.stopped and signal.getsignal(signal.SIGINT) is before


@pytest.mark.slow
def test_kernel_interrupt_in_a_real_kernel(tmp_path):
    """A kernel started as JupyterLab starts it, interrupted as its menu does (``interrupt_kernel``:
    SIGINT) while the progress bar stands: the cell ends without an error, its result stopped."""
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path))
    try:
        for cell in ["%load_ext rpgkernel", f"%rpg --kampagne {tmp_path / 'k.sqlite'}", "%rpg bastionland",
                     "import rpgkernel\nenc = rpgkernel.session.current().campaign.new_encounter('Furt')\n"
                     f"enc.add('Ritter', side='Spieler', sheet={SÖLDNER!r})\n"
                     f"enc.add('Söldner', side='Söldner', sheet={SÖLDNER!r})"]:
            assert kc.execute_interactive(cell, timeout=60)["content"]["status"] == "ok", cell
        msg_id = kc.execute(LONG)
        outputs, interrupted = [], False
        while not outputs or outputs[-1] != ("status", {"execution_state": "idle"}):
            msg = kc.get_iopub_msg(timeout=120)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            outputs.append((kind, content))
            text = content.get("data", {}).get("text/plain", "")
            if kind == "update_display_data" and "Kämpfen gespielt" in text and not interrupted:
                km.interrupt_kernel()   # as Kernel > Interrupt Kernel does
                interrupted = True
        assert interrupted and kc.get_shell_msg(timeout=60)["content"]["status"] == "ok"
        assert not [c for k, c in outputs if k in ("error", "stream")]   # no traceback, nothing printed
        result = [c["data"]["text/plain"] for k, c in outputs if k == "execute_result"]
        assert len(result) == 1 and "simuliert, abgebrochen nach" in result[0] and "Abgebrochen nach" in result[0]
        bars = [c["data"]["text/plain"] for k, c in outputs if k == "update_display_data"]
        assert bars[-1].startswith("Prognose abgebrochen: ")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
