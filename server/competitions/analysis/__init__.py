"""Where a finished game's win was lost: every position's verdict by the solver, worked out once
in the solver's worker process and stored (``job`` the search, ``store`` its SQL, ``routes`` the
route and the lifespan's ``Analyses``)."""
