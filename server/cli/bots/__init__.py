"""``spidertour bots``: many bot players and leaderboard watchers against a running server.

Each bot is a real client: it registers over HTTP, joins a tournament, opens the play websocket,
starts its game and plays with a policy (``random`` or ``greedy``, see ``view``)
at a pace, choosing every move from the last view the server sent (it never sees a face-down
card). Some bots end their game early, the others play until their time runs out or the run
ends. Watchers follow ``/ws/watch/{id}`` and measure how late updates arrive.

What is measured:

- acknowledged moves a second, and the acknowledgement latency (send to ``result``);
- errors by code, reconnections, games over by outcome;
- watcher lag: receive time minus the update's ``at`` (every watcher), and, for a sample of
  watchers, the time from a move's acknowledgement to the first update made after it that
  lists the entry (what a person watching the board waits for).

Every acknowledged move can be logged (``--ack-log FILE``, JSON lines: ``entry_id``, ``seq``, ``n``,
``move``) and checked against PostgreSQL later with ``spidertour bots --check-acks FILE``.
The classes are used by ``bench/server_bench.py`` and the fault tests as well.
"""
