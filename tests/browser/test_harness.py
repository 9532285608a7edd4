"""The notebook helper itself: a notebook whose cells did not all run is an error, not a pass."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_run_all_fails_when_a_cell_fails(notebook):
    with pytest.raises(AssertionError, match=r"not every cell of .* ran: prompts \['\[1\]:', '\[ \]:'\]") as err:
        notebook(["1 / 0", "x = 1"])
    assert "ZeroDivisionError" in str(err.value)


def test_kernels_cancel_the_cells_after_a_failure(notebook):
    nb = notebook(["print(get_ipython().kernel.stop_on_error_timeout)"])
    assert nb.output(0).inner_text().strip() == "2.0"
