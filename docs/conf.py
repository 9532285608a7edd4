"""The documentation site: the German pages, an English overview, the API from the docstrings, the
example notebooks with their stored outputs and the gallery; built strictly (warnings are errors):

    pip install -e ".[docs]"
    python -m sphinx -W --keep-going -c docs . build/docs
"""

import rpgkernel

project = "rpgkernel"
author = "rpgkernel contributors"
copyright = "rpgkernel contributors, MIT licence"
release = version = rpgkernel.__version__
language = "de"

extensions = ["myst_nb", "sphinx.ext.autodoc"]
# the repository's root is the source: the pages in docs/, the notebooks beside them
root_doc = "docs/index"
include_patterns = ["docs/**", "example_notebooks/*.ipynb"]
exclude_patterns = ["build", "docs/_build", "**/.ipynb_checkpoints"]

myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
nb_execution_mode = "off"        # the notebooks show the outputs they are stored with (tested by nbval)
nb_merge_streams = True

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}

html_theme = "furo"
html_title = f"rpgkernel {release}"
html_static_path: list[str] = []
