"""Dialogs the panes and the main window share (above the widgets and workers, below the
panes): :mod:`app.dialogs.encoders` finds and fetches sentence encoders."""
