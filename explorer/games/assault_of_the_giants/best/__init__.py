"""Best play in an Assault of the Giants battle: the search, the values, the advisors."""
