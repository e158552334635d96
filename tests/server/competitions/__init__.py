"""Tests of series, team battles, ratings, several deals, practice and analysis."""
