"""One module per pane; each pane owns its widgets and calls ``core``."""
