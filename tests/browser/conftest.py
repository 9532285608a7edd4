# the fixtures of the browser tests (tests/test_package.py imports them too)
from .fixtures import fixture_chromium, fixture_lab, fixture_notebook, fixture_page  # noqa: F401
