"""A player across tournaments: their career page, charts, and the merging of two records."""
