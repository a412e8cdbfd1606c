"""``python -m collide2d.demo``: the same as ``collide2d demo``."""

from collide2d.demo.command import main

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
