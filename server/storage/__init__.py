"""PostgreSQL and Redis underneath: the pool, the migrations of ``schema/``, the embedded servers
used when none is configured, and the SQL expressions several domains share."""
