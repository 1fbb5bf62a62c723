"""Subword Scope's Qt application. It imports ``core``; ``core`` never imports it."""
