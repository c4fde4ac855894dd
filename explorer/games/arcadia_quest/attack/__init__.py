"""One Arcadia Quest attack: dice, CRIT chains, rerolls, its scenario and report."""
