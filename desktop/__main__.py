"""`python -m desktop` runs the same entry point as the `lmsp-desktop` command."""

from desktop.cli import main

raise SystemExit(main())
