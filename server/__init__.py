"""spidertour's tournament server: Litestar, msgspec, asyncpg and redis-py around the engine."""
