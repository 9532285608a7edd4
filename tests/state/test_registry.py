"""The registry the server finds campaigns by, written by several kernels at the same moment: real
processes, each registering its own keys, lose no entry; the file stays readable by its owner only."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import pytest

from rpgkernel.state import registry

WRITERS, KEYS = 8, 25
WRITER = """
import sys, time
from pathlib import Path
from rpgkernel.state import registry
me, ready, go = int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
ready.touch()
while not go.exists():
    time.sleep(0.001)
for i in range(int(sys.argv[4])):
    registry.register(f"{me:02x}{i:030x}", f"/kampagnen/{me}-{i}.sqlite", f"k{me}")
"""


@pytest.mark.slow
def test_kernels_writing_at_once_lose_no_entry(tmp_path, monkeypatch):
    runtime = tmp_path / "runtime"
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    registry.register("ff" * 16, "postgresql://rpg:geheim@127.0.0.1/rpg", None)   # there before them
    go = tmp_path / "go"
    ready = [tmp_path / f"ready{n}" for n in range(WRITERS)]
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(n), str(ready[n]), str(go), str(KEYS)],
                                env={**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime)})
               for n in range(WRITERS)]
    try:
        deadline = time.monotonic() + 120
        while not all(r.exists() for r in ready):   # every writer imported and waiting
            assert time.monotonic() < deadline and all(w.poll() is None for w in writers)
            time.sleep(0.01)
        go.touch()
        assert [w.wait(timeout=120) for w in writers] == [0] * WRITERS
    finally:
        for w in writers:
            if w.poll() is None:
                w.kill()
    entries = registry.read()
    assert len(entries) == WRITERS * KEYS + 1
    for n in range(WRITERS):
        for i in range(KEYS):
            assert registry.lookup(f"{n:02x}{i:030x}") == (f"/kampagnen/{n}-{i}.sqlite", f"k{n}")
    assert registry.lookup("ff" * 16) == ("postgresql://rpg:geheim@127.0.0.1/rpg", None)
    for name in (registry.NAME, registry.LOCK):
        assert stat.S_IMODE((runtime / name).stat().st_mode) == 0o600
    assert sorted(p.name for p in runtime.iterdir()) == sorted([registry.NAME, registry.LOCK])   # no temp file left
