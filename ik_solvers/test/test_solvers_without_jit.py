# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The same kernels run as plain Python when numba is off, and still solve correctly."""

import json
import os
from pathlib import Path
import subprocess
import sys

from conftest import bundled_oracle
import numpy as np

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'

# Runs in a fresh interpreter with NUMBA_DISABLE_JIT=1 and prints what it found as JSON.
_SCRIPT = r'''
import json, sys
import numpy as np
from ik_solvers import RobotModel, solve, SOLVERS
from ik_solvers.kinematics.jit import JIT_ENABLED
urdf = open(sys.argv[1]).read()
chain = RobotModel.from_urdf(urdf).chain('panda_link0', 'panda_hand_tcp')
rng = np.random.default_rng(4)
report = {'jit': JIT_ENABLED, 'cases': []}
for solver in SOLVERS:
    for mode in ('full', 'axis', 'none'):
        goal = chain.random_configuration(rng)
        seed = chain.clip(goal + rng.uniform(-0.3, 0.3, chain.num_joints))
        target = chain.fk(goal)
        first = solve(chain, target, seed=seed, solver=solver, orientation_mode=mode,
                      timeout=5.0)
        again = solve(chain, target, seed=seed, solver=solver, orientation_mode=mode,
                      timeout=5.0)
        reached = chain.fk(first.q)
        report['cases'].append({
            'solver': solver, 'mode': mode, 'success': bool(first.success),
            'axis_angle': float(np.arccos(np.clip(reached[:3, 2] @ target[:3, 2], -1, 1))),
            'within_limits': bool(chain.within_limits(first.q)),
            'position_error': float(np.linalg.norm(reached[:3, 3] - target[:3, 3])),
            'reported_position_error': first.position_error,
            'same_again': bool(np.array_equal(first.q, again.q)),
            'q': first.q.tolist(), 'target': target.tolist()})
print(json.dumps(report))
'''


def test_plain_python_kernels_solve_every_solver_correctly():
    environment = dict(os.environ, NUMBA_DISABLE_JIT='1')
    # Hang bound: the plain Python kernels are slow, but only a hung child takes ten minutes.
    completed = subprocess.run(
        [sys.executable, '-c', _SCRIPT, str(URDF_DIRECTORY / 'panda_like.urdf')],
        env=environment, capture_output=True, text=True, timeout=600, check=True)
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report['jit'] is False
    assert len(report['cases']) == 12
    for case in report['cases']:
        assert case['success'] and case['within_limits'], case
        assert case['position_error'] <= 1e-5, case
        if case['mode'] != 'none':
            assert case['axis_angle'] <= 1e-5, case
        assert abs(case['position_error'] - case['reported_position_error']) <= 1e-12, case
        assert case['same_again'], case
        # Confirmed outside the package: the tests' own FK and the URDF limits.
        bundled_oracle('panda_like.urdf', 'panda_link0', 'panda_hand_tcp').check(
            case['q'], np.array(case['target']),
            orientation_mode=case['mode'])
