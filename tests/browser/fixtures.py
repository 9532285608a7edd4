"""pytest fixtures of the browser tests: one JupyterLab and one Chromium per worker process, a page per test.

Import them where they are needed (``tests/browser/conftest.py``, ``tests/test_package.py``):
each import is a fixture of its own, but the server and the browser are kept in
``config.stash`` and so started once per process. Without Chromium, Playwright or
JupyterLab the tests skip with the reason; under CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the fixtures below skip (or fail, under CI) before a test gets to use it
    expect = None
else:
    expect.set_options(timeout=60_000)  # a cap, not a timing: widgets render after their cell has run, late on a loaded machine

from .lab import CHROMIUM_FLAGS, SETUP_NOTE, LabServer, find_chromium
from .notebook import ROOT, open_notebook

_LAB = pytest.StashKey[object]()
_CHROMIUM = pytest.StashKey[object]()
_SEEN = pytest.StashKey["Seen"]()


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"Browser tests cannot run: {reason}; {SETUP_NOTE}", pytrace=False)
    pytest.skip(f"Browser tests skipped: {reason}; {SETUP_NOTE}")


def _once(config: pytest.Config, key: pytest.StashKey, start):
    """``start()``'s result, computed once per run; after a failed start, later uses fail at once."""
    if key not in config.stash:
        config.stash[key] = None
        config.stash[key] = start()
    value = config.stash[key]
    if value is None:
        raise RuntimeError("failed to start earlier in this run (see the first error)")
    return value


@pytest.fixture(scope="session", name="lab")
def fixture_lab(request) -> LabServer:
    """The JupyterLab server of this run."""
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        unavailable("JupyterLab is not installed")

    def start() -> LabServer:
        server = LabServer()
        request.config.add_cleanup(server.stop)  # also when the run fails or is interrupted
        server.start()
        return server
    return _once(request.config, _LAB, start)


@pytest.fixture(scope="session", name="chromium")
def fixture_chromium(request):
    """A headless Chromium (Debian's, through Playwright's sync API)."""
    executable = find_chromium()
    if executable is None:
        unavailable("no Chromium found (looked for chromium and chromium-browser on PATH)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed")

    def start():
        playwright = sync_playwright().start()
        request.config.add_cleanup(playwright.stop)
        browser = playwright.chromium.launch(executable_path=executable, args=list(CHROMIUM_FLAGS))
        request.config.add_cleanup(browser.close)
        return browser
    return _once(request.config, _CHROMIUM, start)


@dataclass
class Seen:
    """What a failing browser test reports: the server log since it started, the page's console."""
    lab: LabServer
    page: object
    log_from: int
    console: list[str] = field(default_factory=list)


class _FailureReport:
    """Adds the server log, the browser console and a screenshot to a failed browser test's report."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        seen = item.stash.get(_SEEN, None)
        if seen is not None and report.failed:
            report.sections.append(("JupyterLab server log", seen.lab.log(seen.log_from) or "(empty)"))
            report.sections.append(("browser console", "\n".join(seen.console) or "(empty)"))
            if not seen.page.is_closed():
                shot = ROOT / "tests" / ".artifacts" / "failures" / (re.sub(r"[^\w.-]+", "_", item.nodeid) + ".png")
                shot.parent.mkdir(parents=True, exist_ok=True)
                try:
                    seen.page.screenshot(path=str(shot), full_page=True)
                    report.sections.append(("browser screenshot", str(shot)))
                except Exception as err:  # noqa: BLE001  (a crashed page: the report matters more)
                    report.sections.append(("browser screenshot", f"none: {err}"))
        return report


@pytest.fixture(name="page")
def fixture_page(request, chromium, lab):
    """A fresh browser page (own context: no storage left over from other tests)."""
    plugins = request.config.pluginmanager
    if plugins.get_plugin("rpgkernel-browser-report") is None:
        plugins.register(_FailureReport(), "rpgkernel-browser-report")
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    page = context.new_page()
    seen = Seen(lab, page, lab.log_size())
    page.on("console", lambda msg: seen.console.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda err: seen.console.append(f"page error: {err}"))
    request.node.stash[_SEEN] = seen
    yield page
    context.close()
    lab.shutdown_kernels()


@pytest.fixture(name="notebook")
def fixture_notebook(request, page, lab):
    """``notebook(cells, kernel=PYTHON3)``: write, open and run a notebook named after the test."""
    name = re.sub(r"[^\w-]+", "_", request.node.name)

    def run(cells: list[str], **kwargs):
        return open_notebook(page, lab, name, cells, **kwargs)
    return run
