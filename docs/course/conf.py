"""The published course: Sphinx with MyST-NB turns the executed notebooks into static pages.

Build it, both languages (offline; no network is needed or used):

    python -m agentlib.course notebooks/*.ipynb --output-dir docs/course/executed
    python -m agentlib.course notebooks/zh/*.ipynb --output-dir docs/course/zh/executed
    sphinx-build -b html docs/course docs/course/_build/html
"""

project = "Build a coding agent: the loop (s01) and tool use (s02)"
extensions = ["myst_nb"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# The pages show the outputs saved by the runner above; nothing runs while building.
nb_execution_mode = "off"
# The round diagram's output carries the live widget and a static HTML copy. Published pages
# have no kernel to draw the widget (and the notebooks keep no widget state), so the static
# copy must win; MyST-NB would otherwise pick the widget and show nothing.
nb_mime_priority_overrides = [("html", "text/html", 0)]

html_theme = "alabaster"  # ships with Sphinx: no theme to download
html_theme_options = {"nosidebar": False, "page_width": "1200px"}
