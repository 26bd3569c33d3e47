"""One module per game: its rules and nothing else."""
