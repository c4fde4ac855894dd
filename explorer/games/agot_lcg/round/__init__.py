"""A whole challenges phase: dominance, the best defence and the attacker's best plan."""
