"""Play: the play websocket, one writer per entry, the game rebuilt from its committed moves, and
moves committed many games at a time."""
