"""Timing: framework steps, interrupt and reaction order, and their explainer."""
