import pytest


@pytest.fixture(autouse=True)
def fights_unshown(resolutions_speak_german):
    """The resolutions of the fights a forecast plays are never shown: only what a test shows is checked
    for German numbers."""
    yield
    resolutions_speak_german.clear()
