"""The table on phones: touch targets, landscape, deals asked first, double-tap."""
