"""Calls from a batch loop to a scalar kernel's own machine code: moved to :mod:`collide2d._jit`
(the public part: :func:`~collide2d._jit.address_of`, :func:`~collide2d._jit.kernel_at`,
:func:`~collide2d._jit.linked_copies`, :data:`~collide2d._jit.LINKED_FROM`, ``call_at``) and
:mod:`collide2d._jit._shortcuts` (the typing and lowering of a call by address). This module
re-exports the public part for the modules not yet moved to it."""

from __future__ import annotations

from collide2d._jit import LINKED_FROM, address_of, kernel_at, linked_copies, shortcuts_active

__all__ = ["LINKED_FROM", "address_of", "call_at", "compile_shortcuts", "kernel_at", "linked_copies"]

compile_shortcuts = shortcuts_active


def __getattr__(name):
    if name == "call_at":
        from collide2d import _jit

        return _jit.call_at
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
