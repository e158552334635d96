"""How fast a connection may send (``rate``) and how far behind the event loop runs (``lag``)."""
