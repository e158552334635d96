"""Communities: organisers with their own tokens, clubs with rosters and invite codes, who may see
and join a tournament, and the exports an organiser prints or keeps."""
