"""Practice and analysis of one deal of a finished tournament of several deals."""
