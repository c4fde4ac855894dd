"""One Assault of the Giants battle: resolved, read from a scenario, reported, traced, swept."""
