"""The competitions' commands on a running server: series (and the other competitions as they come)."""
