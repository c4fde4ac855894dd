"""Plans of several Assault of the Giants battles and the endgame's win chances."""
