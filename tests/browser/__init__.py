"""Browser tests: notebooks run in a real JupyterLab, shown in headless Chromium."""
