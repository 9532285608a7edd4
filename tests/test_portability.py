"""No POSIX-only module: every module of the package imports, and a player link's campaign registry is
written, where ``fcntl`` does not exist (as on Windows)."""

import json
import os
import subprocess
import sys

SCRIPT = r"""
import importlib, importlib.abc, json, pkgutil, sys

class NoFcntl(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "fcntl":
            raise ModuleNotFoundError("No module named 'fcntl'", name=name)

sys.meta_path.insert(0, NoFcntl())
sys.modules.pop("fcntl", None)
import rpgkernel
failed = {}
names = [m.name for m in pkgutil.walk_packages(rpgkernel.__path__, "rpgkernel.")]
for name in names:
    try:
        importlib.import_module(name)
    except Exception as e:
        failed[name] = repr(e)
from rpgkernel.state import registry
registry.register("k1", "sqlite:///x.sqlite", "runde")
print(json.dumps({"modules": len(names), "failed": failed, "found": registry.lookup("k1"),
                  "fcntl": "fcntl" in sys.modules}))
"""


def test_every_module_and_the_registry_without_fcntl(tmp_path):
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT], capture_output=True, text=True,
                         env=env, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["modules"] > 100 and found["failed"] == {}
    assert found["found"] == ["sqlite:///x.sqlite", "runde"] and found["fcntl"] is False
