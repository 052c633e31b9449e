# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The private compiled core of the solvers: the flat arrays, their one pack and unpack, the loop.

Nothing outside this package reads the slot layout of the arrays a compiled call takes: the
typed :class:`ik_solvers.solvers.request.Goal` and ``SearchOptions`` are packed here once per
prepared solver (:func:`.pack.pack`), and a search's report is read here
(:func:`.pack.unpack`). Its modules are private: their names may change with any release.
"""

__all__ = []
