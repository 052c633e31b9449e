# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compiling (or loading from the disk cache) each solver's search and batch loop before use.

numba compiles a function on its first call: seconds the first time ever, tens of milliseconds
to load the cached machine code in a new process. Either would eat the first solve's deadline,
so :func:`solve` warms a solver up before it starts the clock, and a node warms up all of them
before it reports ready. What is compiled is logged on the ``ik_solvers`` logger.
"""

import logging
import threading
import time
from typing import Iterable, Optional

import numpy as np

from ._core.batch_kernels import batch_entry, run_batch
from ._core.closest_orientation import closest_orientation
from ._core.input_checks import invalid_targets
from ._core.approach_kernel import approach_search
from ._core.pack import new_report, new_reports, pack
from .branch_flips import branch_flips, load_flip_kernels
from .request import Goal
from .registry import SOLVERS, solver_class
from ._core.nearest_turn import nearest_turn
from ._core.root_refinement import refine_root
from ._core.walk import walk_targets
from ..kinematics import Chain, RobotModel
from ..kinematics.manipulability import manipulability
from ..kinematics.jit import JIT_ENABLED

__all__ = ['is_warm', 'warm_up']

_LOGGER = logging.getLogger('ik_solvers')
_WARM = set()
_LOCK = threading.Lock()

# Two hinges and a prismatic joint: every kind of joint, so every branch is compiled.
_TINY_URDF = """<robot name="warm_up">
  <link name="base"/><link name="upper"/><link name="lower"/><link name="tip"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="slide" type="prismatic"><parent link="lower"/><child link="tip"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.1" effort="1" velocity="1"/>
  </joint>
</robot>"""
_TINY_CHAIN: Optional[Chain] = None
# s a warm-up may take before it is taken for a compilation and announced.
_NOTICE_AFTER = 2.0
_COMPILING_NOTICE = (
    'ik_solvers: compiling the solver kernels on first use; about 75 s on a 2-core machine, '
    'once after an install (all four solvers), then loaded from the disk cache in well under '
    'a second')


def _settings(implementation: type, deadline: float) -> np.ndarray:
    return pack(Goal(position_tolerance=1e-6, orientation_tolerance=1e-6), implementation(),
                polish=True, orientation_weight=0.1, polish_iterations=2, max_attempts=1,
                deadline=deadline)


def is_warm(solver: str) -> bool:
    """Whether ``solver``'s search is compiled and loaded in this process."""
    return solver in _WARM


def warm_up(solvers: Iterable[str] = SOLVERS) -> float:
    """
    Compile, or load from the disk cache, the search of each named solver.

    :param solvers: names from :data:`SOLVERS`.

    :returns: The time it took, s.

    :raises UnknownSolverError: a name is not registered.
    """
    solvers = tuple(solvers)
    started = time.perf_counter()
    # Loading cached machine code takes milliseconds; compiling takes about 75 s on an idle
    # 2-core machine once after an install. Say so only when it is the slow case, so that a
    # first solve is not silent.
    notice = threading.Timer(_NOTICE_AFTER, _LOGGER.warning, args=(_COMPILING_NOTICE,))
    notice.daemon = True
    if JIT_ENABLED and not set(solvers) <= _WARM:
        notice.start()
    try:
        _warm_each(solvers)
    finally:
        notice.cancel()
    return time.perf_counter() - started


def _warm_each(solvers: Iterable[str]) -> None:
    global _TINY_CHAIN
    with _LOCK:  # two threads must not compile the same function at once
        for name in solvers:
            implementation = solver_class(name)
            if name in _WARM:
                continue
            if JIT_ENABLED:
                _LOGGER.info('compiling the %s solver (seconds the first time, then loaded '
                             'from the disk cache)', name)
            if _TINY_CHAIN is None:
                _TINY_CHAIN = RobotModel.from_urdf(_TINY_URDF).chain('base', 'tip')
            chain = _TINY_CHAIN
            settings = _settings(implementation, time.perf_counter() + 60.0)
            target = chain.fk(chain.mid_configuration() + 0.1)
            options = implementation().pack_options(chain)
            implementation.search(chain.arrays, target, settings, options,
                                  chain.mid_configuration(), new_report())
            # solve_batch's loop over the same search: a batch must not compile on its first
            # call either. The argument types are those solve_batch passes.
            address = batch_entry(implementation.search, chain.arrays)
            if address is not None:
                run_batch(address, chain.arrays, np.ascontiguousarray(target[None]),
                          settings.copy(), options, chain.mid_configuration()[None].copy(),
                          new_reports(1), 0, 1, 0.0)
            if not _WARM:  # the fallback, the approximate step and a path's walk are shared
                invalid_targets(np.ascontiguousarray(target[None]))  # solve_batch's check
                closest_orientation(chain.arrays, target, settings, chain.mid_configuration(),
                                    new_report())
                approach_search(chain.arrays, target, settings, chain.mid_configuration(),
                                np.full(chain.num_joints, 0.1), 30, new_report())
                path = np.empty((2, chain.num_joints))
                path[0] = chain.mid_configuration()
                walk_targets(chain.arrays, np.stack((target, target)), settings, path, 1, 1, 4,
                             0.5, time.perf_counter() + 60.0)
                # A collision-checked solve's reseeds call it from Python.
                nearest_turn(chain.mid_configuration(), chain.mid_configuration(),
                             chain.arrays)
                # solve_many's branch flips (compiled too).
                branch_flips(chain, chain.mid_configuration(), chain.lower, chain.upper)
                load_flip_kernels(chain)
                # The manipulability preference's measure (solve_many scores with it).
                manipulability(chain.arrays, chain.mid_configuration()[None].copy(), 3)
                # solve_many's Newton steps to each solution's root.
                refine_root(chain.arrays, np.array(target, dtype=float),
                            chain.mid_configuration(), np.array(chain.lower, dtype=float),
                            np.array(chain.upper, dtype=float), 2)
            _WARM.add(name)
