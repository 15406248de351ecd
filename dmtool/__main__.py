"""`python -m dmtool`: the console script (the daemon starts itself this way)."""

from dmtool.console import main

main()
