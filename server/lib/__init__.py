"""Plumbing shared by every domain package: HTTP helpers, tokens and hashes, batching."""
