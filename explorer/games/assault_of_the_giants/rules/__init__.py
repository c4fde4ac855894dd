"""Assault of the Giants rules as data and small procedures: dice, units, cards, a side's roll, casualties."""
