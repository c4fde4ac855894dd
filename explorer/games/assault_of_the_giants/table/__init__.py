"""The rules of the table: races, regions, phases, legal moves and the winner (p.20)."""
