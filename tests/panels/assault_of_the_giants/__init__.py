"""Tests of the Assault of the Giants panel (`explorer.panels.assault_of_the_giants`)."""
