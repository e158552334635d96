"""Tests of the server at a big tournament's sizes: its ratings at the finish."""
