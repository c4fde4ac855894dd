"""A whole hero action (attack, Payback, Guard, coins) and attacks in turn until a monster dies."""
