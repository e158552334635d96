"""Players: guests and accounts, their sessions (one bearer token a device), signing in (password,
club code or a host site's token) and out, and knowing the player behind a token."""
