"""Players: registering a display name for a token, and knowing a player by that token."""
