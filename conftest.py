"""How the suite runs in parallel (pytest-xdist, one worker per core), for every test path.

The scheduler below makes units of work by a test's path, since an ``xdist_group`` mark no longer
reaches the scheduler (pytest 9.2 ignores the node id xdist rewrites for it):
- an example notebook's cells (nbval) are one unit: one worker runs them in order in one kernel;
- a module in ``TOGETHER`` is one unit, so its module fixtures (a server, the built documentation, an
  environment) start once; the modules in ``FRESH`` that share a fresh environment (a session fixture:
  the README's start command, the Binder build) are one unit, so that environment is made once;
- every other test is a unit of its own; each worker starts its own JupyterLab and Chromium (session
  fixtures) for the browser tests it gets.
The units go out by ``RANKS`` (what starts processes first), larger before smaller, the slow tests
before the others (each worker lists them first), so that the many quick tests fill both workers up to
the end.
"""

import pytest

#: the rank of a test by its path: browser tests first, then servers, the built documentation and fresh
#: environments, then the example notebooks; every other test after them
RANKS = {"tests/browser/": 0, "tests/test_package.py": 0, "tests/server/": 1, "tests/test_docs_site.py": 1,
         "tests/test_binder.py": 1, "tests/test_ruleset_package.py": 1, "example_notebooks/": 2}
LAST = 3
#: modules whose tests share a module fixture that starts a process or builds something: one unit each
TOGETHER = ("tests/browser/test_file_browser.py", "tests/browser/test_links.py", "tests/server/",
            "tests/test_docs_site.py")
#: modules whose tests share one of the run's fresh environments (session fixtures of tests/conftest.py):
#: one unit each, by its name
FRESH = {"tests/test_package.py": "README environment", "tests/browser/test_walkthrough.py": "README environment",
         "tests/test_binder.py": "Binder environment", "tests/test_ruleset_package.py": "Binder environment"}


def unit_of(nodeid: str) -> tuple[str, int]:
    """The unit a test runs in (a path, a name, or its own id) and the rank of that unit in the queue."""
    path = nodeid.partition("::")[0]
    rank = next((r for prefix, r in RANKS.items() if path.startswith(prefix)), LAST)
    if path in FRESH:
        return FRESH[path], rank
    together = path.endswith(".ipynb") or path.startswith(TOGETHER)
    return (path if together else nodeid), rank


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


def pytest_collection_modifyitems(config, items):
    """A notebook's cells start a kernel and run its campaign: slow (``-m "not slow"`` leaves them out).
    In a worker of a parallel run the slow tests come first: the scheduler keeps this order within a rank,
    so that no test of a minute is the last to start while the other worker has nothing left."""
    for item in items:
        if ".ipynb::" in item.nodeid:
            item.add_marker(pytest.mark.slow)
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
