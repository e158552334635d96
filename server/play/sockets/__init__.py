"""The doors to a play session: Litestar's websocket on PORT, the lighter one on PLAY_PORT, and
where clients find them."""
