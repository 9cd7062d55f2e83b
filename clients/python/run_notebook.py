"""Runs a notebook's code cells in order in one namespace, printing what they print: the test of
clients/python (api/test/pythonClient.integration.test.ts) runs the season notebook this way with the
system python3, without Jupyter. Standard library only.

    PYTHONPATH=clients/python python3 clients/python/run_notebook.py clients/python/notebooks/season.ipynb
"""

import json
import sys


def run(path: str) -> None:
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    namespace = {"__name__": "__main__"}
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        exec(compile(source, f"{path}#cell{index}", "exec"), namespace)


if __name__ == "__main__":
    run(sys.argv[1])
