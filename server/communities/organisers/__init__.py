"""Organisers: made by the owner (a token, or an account whose sessions carry the rights) or by an
account itself where organisers are open; what each manages, as one list."""
