"""`python -m spawnpit …` is the same as the `spawnpit` command."""

from spawnpit.cli import main

main()
