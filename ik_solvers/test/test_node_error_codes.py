# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""One list of answer codes: the engine's enum is the ErrorCodes message, name for name."""

from ik_solvers.engine.error_codes import ErrorCode, PATH_CODES, path_code
from ik_solvers_interfaces.msg import ErrorCodes, IKStatus
from ik_solvers_interfaces.srv import CartesianPath, SolveIK


def _constants(message_type) -> dict:
    return {name: getattr(message_type, name) for name in dir(message_type)
            if name.isupper() and isinstance(getattr(message_type, name), int)}


def test_every_error_code_equals_the_message_constant_of_its_name():
    assert {code.name: int(code) for code in ErrorCode} == _constants(ErrorCodes)


def test_codes_are_never_renumbered():
    # Clients built against an older interface still understand every code they know.
    old = ['SUCCESS', 'NO_SOLUTION', 'TIMED_OUT', 'INVALID_TARGET', 'UNKNOWN_FRAME',
           'NO_ROBOT_MODEL', 'INVALID_SEED', 'UNKNOWN_SOLVER', 'INVALID_TIMEOUT',
           'EXECUTION_FAILED', 'BUSY', 'ORIENTATION_UNREACHABLE', 'APPROXIMATE', 'IN_COLLISION']
    assert [int(ErrorCode[name]) for name in old] == list(range(14))
    assert ErrorCode.JOINT_JUMP == 20 and ErrorCode.COLLISION_CHECKING_UNAVAILABLE == 26
    assert ErrorCode.INTERNAL_ERROR == 255


def test_every_interface_carries_the_code_in_one_type_and_declares_no_codes_of_its_own():
    for message_type in (SolveIK.Response, CartesianPath.Response, IKStatus):
        assert message_type.get_fields_and_field_types()['error_code'] == 'uint8'
        assert not set(_constants(message_type)) & set(ErrorCode.__members__), message_type


def test_path_codes_are_a_subset_and_a_solve_only_code_becomes_internal_error():
    assert PATH_CODES < set(ErrorCode)
    assert ErrorCode.CHAIN_REFUSED in PATH_CODES and ErrorCode.JOINT_JUMP in PATH_CODES
    assert path_code(ErrorCode.UNKNOWN_FRAME) is ErrorCode.UNKNOWN_FRAME
    assert path_code(ErrorCode.APPROXIMATE) is ErrorCode.INTERNAL_ERROR
    # Every code fits the one wire type.
    assert all(0 <= code <= 255 for code in ErrorCode)
