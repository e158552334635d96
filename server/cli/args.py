"""Argument types shared by the ``spidertour`` commands."""

from __future__ import annotations

import argparse


def on_off(text: str) -> bool:
    """A setting switched on or off on the command line (on/off, true/false, yes/no, 1/0)."""
    if text.lower() in ("on", "true", "yes", "1"):
        return True
    if text.lower() in ("off", "false", "no", "0"):
        return False
    raise argparse.ArgumentTypeError("on or off")


def an_id(text: str) -> int:
    """An id (a tournament's, an entry's, a schedule's): plain ASCII digits, no sign or spaces."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not an id (a whole number from 1, in plain digits)")
    return int(text)
