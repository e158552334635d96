"""Watching: live leaderboards in Redis, updates shared between server processes and coalesced
for every watcher, the watch socket, and the standings over HTTP."""
