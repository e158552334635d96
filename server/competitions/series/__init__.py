"""Series: a season or a league whose table adds up the final standings of its tournaments
(docs/competitions.md). Messages, the points rule (pure), the SQL and the routes."""
