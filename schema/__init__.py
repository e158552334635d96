"""The database's migrations: ``NNN_name.sql``, applied in order, each once (``spidertour migrate``).

Shipped inside the package as data; the server reads them with ``importlib.resources``.
"""
