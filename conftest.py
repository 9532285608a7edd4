"""How the suite runs in parallel (pytest-xdist, one worker per core), for every test path.

The scheduler below groups tests by their path, since an ``xdist_group`` mark no longer reaches the
scheduler (pytest 9.2 ignores the node id xdist rewrites for it):
- an example notebook's cells (nbval) run in one worker, in order, in the notebook's one kernel;
- a module that starts processes (``TOGETHER``: JupyterLab and Chromium, servers, a built wheel, a fresh
  environment) runs in one worker, so its module fixtures start once; each worker starts its own
  JupyterLab and Chromium (session fixtures) for the browser modules it gets;
- every other test is a unit of its own.
The groups go out first, browser modules before servers before notebooks, larger before smaller, so the
many quick tests fill both workers up to the end.
"""

import pytest

#: path prefixes of the modules whose tests run together in one worker (the rank orders them)
TOGETHER = {"tests/browser/": 0, "tests/test_package.py": 0, "tests/server/": 1, "tests/test_docs_site.py": 1}
NOTEBOOK_RANK = 2
SINGLE_RANK = 3


def unit_of(nodeid: str) -> tuple[str, int]:
    """The unit a test runs in (a path, or its own id) and the rank of that unit in the queue."""
    path = nodeid.partition("::")[0]
    if path.endswith(".ipynb"):
        return path, NOTEBOOK_RANK
    for prefix, rank in TOGETHER.items():
        if path.startswith(prefix):
            return path, rank
    return nodeid, SINGLE_RANK


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class ByPath(LoadScopeScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)[0]

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:   # the queue is complete before the first unit goes out
                self.ordered = True
                units = sorted(self.workqueue.items(),
                               key=lambda unit: (unit_of(next(iter(unit[1])))[1], -len(unit[1])))
                self.workqueue.clear()
                self.workqueue.update(units)
            super()._assign_work_unit(node)
    return ByPath(config, log)


def pytest_collection_modifyitems(items):
    """A notebook's cells start a kernel and run its campaign: slow (``-m "not slow"`` leaves them out)."""
    for item in items:
        if ".ipynb::" in item.nodeid:
            item.add_marker(pytest.mark.slow)
