-- Asking for a match looks for waiting matches whose players' ratings lie in the caller's band:
-- with many matches waiting at ratings far apart, only those whose lowest rating is near the
-- caller's are read (the widest band any waiting match has reached bounds how near).
CREATE INDEX matches_waiting_low ON matches (format, low) WHERE status = 'waiting';
