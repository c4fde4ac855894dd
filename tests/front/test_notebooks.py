"""Every notebook under notebooks/ runs from top to bottom without an error.

Each runs in a fresh ``python3`` kernel (the venv's: its kernel spec starts ``python``, which
jupyter_client replaces by the running interpreter), in the notebook's own folder, as Voila
and JupyterLab run it. Nothing is written back to the notebooks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT_S = 600


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "no notebooks/*.ipynb found"


def test_python3_kernel_is_this_interpreter() -> None:
    """The ``python3`` kernel (Voila's, JupyterLab's, these tests') runs this venv's Python."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.executable)")])
    NotebookClient(nb, kernel_name="python3", timeout=CELL_TIMEOUT_S).execute()
    assert nb.cells[0].outputs[0]["text"].strip() == sys.executable


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    kernel = nb.metadata.get("kernelspec", {}).get("name")
    assert kernel == "python3", f"{path.name}: kernelspec is {kernel!r}, want 'python3'"
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=CELL_TIMEOUT_S,
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        client.execute()
    except CellExecutionError as error:
        pytest.fail(f"{path.name} failed:\n{error}", pytrace=False)
    errors = [
        (index, output)
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors, f"{path.name}: error outputs in cells " + json.dumps(
        [{"cell": i, "ename": o.get("ename"), "evalue": o.get("evalue")} for i, o in errors]
    )
