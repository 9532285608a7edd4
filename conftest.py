"""How the suite runs in parallel (pytest-xdist; pyproject.toml: --dist=loadgroup), for every test path.

An example notebook's cells (nbval) run in one worker, in order, in the notebook's one kernel: they keep
their own test ids, so a notebook is a group by its path (the marks of tests/conftest.py group the rest).
"""

import pytest


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadGroupScheduling

    class NotebooksTogether(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if ".ipynb::" in nodeid:
                return nodeid.partition("::")[0]
            return super()._split_scope(nodeid)
    return NotebooksTogether(config, log)


def pytest_collection_modifyitems(items):
    """A notebook's cells start a kernel and run its campaign: slow (``-m "not slow"`` leaves them out)."""
    for item in items:
        if ".ipynb::" in item.nodeid:
            item.add_marker(pytest.mark.slow)
