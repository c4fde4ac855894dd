"""Exact card odds: intrigue claims, draws, running out of cards, the race to 15."""
