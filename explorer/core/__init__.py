"""The core: exact distributions, dice, packing, and the exact engine (no game rules, no widgets)."""
