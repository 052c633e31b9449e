# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Fill the SolveIK response and the IKStatus message from an :class:`IKOutcome`."""

from builtin_interfaces.msg import Time
from ik_solvers_interfaces.msg import IKStatus
from ik_solvers_interfaces.srv import SolveIK

from .conversions import joint_state_message, matrix_to_pose, seconds_to_duration
from .outcome import IKOutcome

__all__ = ['fill_response', 'status_message']


def _first_line(message: str) -> str:
    # Internal errors carry a traceback for the log; callers get its first line.
    return message.splitlines()[0] if message else ''


def fill_response(response: SolveIK.Response, outcome: IKOutcome,
                  stamp: Time) -> SolveIK.Response:
    """
    Copy an outcome into a SolveIK response.

    :param response: The response to fill (as rclpy passes it to the service callback).
    :param outcome: The outcome of the solve.
    :param stamp: Stamp of the solution's joint state.
    :return: ``response``.
    """
    response.success = outcome.success
    response.error_code = outcome.error_code
    response.message = _first_line(outcome.message)
    if outcome.chain is not None and outcome.result is not None:
        result = outcome.result
        response.solution = joint_state_message(outcome.chain.joint_names, result.q)
        response.solution.header.stamp = stamp
        response.position_error = float(result.position_error)
        response.orientation_error = float(result.orientation_error)
        response.iterations = int(result.iterations)
        response.solve_time = seconds_to_duration(max(float(result.elapsed), 0.0))
    return response


def status_message(outcome: IKOutcome, *, commanded: bool, stamp: Time,
                   frame_id: str) -> IKStatus:
    """
    Build the IKStatus of one streamed solve.

    :param outcome: The outcome of the solve.
    :param commanded: Whether the solution was published as a command.
    :param stamp: Time of the solve.
    :param frame_id: The chain's base link, the frame of ``target`` and ``reached``.
    :return: The message; poses stay identity when the solve stopped before them.
    """
    status = IKStatus()
    status.header.stamp = stamp
    status.header.frame_id = frame_id
    status.success = outcome.success
    status.error_code = outcome.error_code
    status.message = _first_line(outcome.message)
    status.solver = outcome.solver
    status.commanded = commanded
    if outcome.target is not None:
        status.target = matrix_to_pose(outcome.target)
    reached = outcome.reached
    if reached is not None:
        result = outcome.result
        status.reached = matrix_to_pose(reached)
        status.position_error = float(result.position_error)
        status.orientation_error = float(result.orientation_error)
        status.solution = joint_state_message(outcome.chain.joint_names, result.q)
        status.solution.header.stamp = stamp
        status.iterations = int(result.iterations)
        status.solve_time = seconds_to_duration(max(float(result.elapsed), 0.0))
    return status
