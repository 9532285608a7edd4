"""The example notebooks as stored: outputs that open well before they run, nothing that varies."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "example_notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_outputs_need_no_live_widgets_and_hold_no_timestamps(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["metadata"]["kernelspec"]["name"] == "python3" and "widgets" not in nb["metadata"]
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all(c["execution_count"] for c in code)   # stored as executed, outputs included
    for cell in code:
        assert "execution" not in cell["metadata"]
        for out in cell["outputs"]:
            data = out.get("data", {})
            # a widget's view needs its live model; stored, the notebook shows the text and HTML forms
            assert "application/vnd.jupyter.widget-view+json" not in data
            if out["output_type"] in ("execute_result", "display_data"):
                assert "text/plain" in data
