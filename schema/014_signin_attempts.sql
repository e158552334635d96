-- Failed sign-ins and host-site assertions, kept in PostgreSQL so that what guards sign-in holds
-- whatever Redis does (down, or every connection busy).
--
-- One row per handle tried and per client address (its keyed hash) with failures in the current
-- window: an attempt is counted here before its password or code is checked, and given back when
-- it succeeds (a handle's count is then cleared). Rows whose window ended long ago are deleted by
-- the clock.
CREATE TABLE signin_failures (
    key       text        PRIMARY KEY,   -- 'address:<hash in hex>' or 'handle:<handle>'
    failures  integer     NOT NULL,
    ends_at   timestamptz NOT NULL       -- the window's end (it began at the first failure)
);
CREATE INDEX signin_failures_ends ON signin_failures (ends_at);

-- Host-site assertions taken: each signs in once. Its jti (or its SHA-256 when it has none) is
-- remembered until it expires; a second use is refused.
CREATE TABLE external_assertions (
    issuer      text        NOT NULL,
    id          text        NOT NULL,
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (issuer, id)
);
CREATE INDEX external_assertions_expiry ON external_assertions (expires_at);
