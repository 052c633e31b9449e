# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The engine's plain error codes are the SolveIK constants, name for name and value for value."""

from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers_interfaces.srv import SolveIK


def test_every_error_code_equals_the_solve_ik_constant_of_its_name():
    constants = {name: getattr(SolveIK.Response, name) for name in dir(SolveIK.Response)
                 if name.isupper() and isinstance(getattr(SolveIK.Response, name), int)}
    assert {code.name: int(code) for code in ErrorCode} == constants
