"""The competition pages in the browser: series, teams, ratings, several deals, practice, analysis."""
