"""Reusable views shared by panes."""
