"""The game page around the table: the place while playing, the rules and scoring in the help,
the free column's bonus, the keyboard focus frames."""
