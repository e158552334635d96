"""The ``spidertour`` command line and the clients it runs (organiser commands, verify, solve, bots).

Nothing the server runs imports from here.
"""
