"""The game page around the table: the place while playing, the help's rules and scoring, the free column's bonus, focus frames."""
