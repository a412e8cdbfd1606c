"""``python -m collide2d``: the command-line tool."""

from collide2d.cli import main

raise SystemExit(main())
