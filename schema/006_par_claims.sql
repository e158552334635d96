-- Who is working out a finished tournament's par: one process at a time, on a lease it renews
-- while it solves. A lease that ran out (its process crashed or was cut off) may be claimed again.

CREATE TABLE par_claims (
    tournament_id  bigint       PRIMARY KEY REFERENCES tournaments (id),
    claimed_by     text         NOT NULL,            -- host:pid:random of the server solving
    expires_at     timestamptz  NOT NULL,            -- the lease: renewed while the solve runs
    starts         integer      NOT NULL DEFAULT 1   -- how many times a solve of this par was started
);
