# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Orientation modes over DDS: the SolveIK fields, the node parameters, the fallback."""

import math
from pathlib import Path

from conftest import rotation_angle, UrdfOracle
from ik_solvers.kinematics import RobotModel
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
import transforms3d
from test_node_support import (
    jtc_accepts,
    oracle_confirms,
    same_position,
    start_ur5_node,
    UR5_CHAIN,
    UR5_HOME,
    UR5_ORACLE,
)

Codes = ErrorCodes
URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
SO101 = (URDF_DIR / 'so101_like.urdf').read_text(encoding='utf-8')
SO101_CHAIN = RobotModel.from_urdf(SO101).chain('base_link', 'gripper_frame_link')
SO101_HOME = np.array([0.2, -0.4, 0.6, 0.5, 0.1])
SO101_ORACLE = UrdfOracle(SO101, 'base_link', 'gripper_frame_link')


def _axis_angle(reached: np.ndarray, target: np.ndarray) -> float:
    first, second = reached[:3, 2], target[:3, 2]
    return math.atan2(float(np.linalg.norm(np.cross(first, second))), float(first @ second))


def _spun(pose: np.ndarray, angle: float) -> np.ndarray:
    turned = pose.copy()
    turned[:3, :3] = pose[:3, :3] @ transforms3d.axangles.axangle2mat((0.0, 0.0, 1.0), angle)
    return turned


def _start_so101(ros, **parameters):
    node, probe = ros.start(base_link='base_link', tip_link='gripper_frame_link', **parameters)
    probe.stream_joint_states(SO101_CHAIN.joint_names, SO101_HOME)
    probe.publish_description(SO101)
    probe.wait_for_model()
    return node, probe


def test_the_error_codes_match_the_service_constants():
    for code in ErrorCode:
        assert getattr(Codes, code.name) == code.value


def test_axis_mode_over_the_service_leaves_the_spin_free(ros):
    node, probe = start_ur5_node(ros)
    goal = UR5_CHAIN.fk(UR5_HOME + np.array([0.1, -0.1, 0.1, 0.05, -0.1, 0.1]))
    spun = _spun(goal, 1.2)
    full = probe.call(probe.target_request(spun))
    aimed = probe.call(probe.target_request(spun, orientation_mode='axis',
                                            tip_axis=[0.0, 0.0, 2.0]))
    assert full.success and aimed.success, (full.message, aimed.message)
    oracle_confirms(UR5_ORACLE, full.solution.name, full.solution.position, spun)
    aimed_pose = oracle_confirms(UR5_ORACLE, aimed.solution.name, aimed.solution.position,
                                 spun, orientation_mode='axis')
    assert abs(aimed.orientation_error - _axis_angle(aimed_pose, spun)) <= 1e-9
    bad = probe.call(probe.target_request(goal, orientation_mode='sideways'))
    assert bad.error_code == Codes.INVALID_TARGET and 'orientation_mode' in bad.message
    short = probe.call(probe.target_request(goal, orientation_mode='axis', tip_axis=[1.0]))
    assert short.error_code == Codes.INVALID_TARGET and 'tip_axis' in short.message


def test_old_clients_that_leave_the_new_fields_empty_get_a_full_pose(ros):
    node, probe = start_ur5_node(ros)
    goal = UR5_CHAIN.fk(UR5_HOME + np.array([0.05, 0.05, -0.05, 0.0, 0.05, 0.05]))
    request = probe.target_request(goal)
    assert request.orientation_mode == '' and len(request.tip_axis) == 0
    response = probe.call(request)
    assert response.success, response.message
    oracle_confirms(UR5_ORACLE, response.solution.name, response.solution.position, goal)


def test_per_axis_bounds_over_the_service(ros):
    node, probe = start_ur5_node(ros)
    goal = UR5_CHAIN.fk(UR5_HOME + np.array([0.05, -0.05, 0.05, 0.0, 0.0, 0.0]))
    far_above = goal.copy()
    far_above[2, 3] += 5.0  # out of reach along z
    free_z = probe.call(probe.target_request(far_above, position_only=True,
                                             position_bounds=[1e-4, 1e-4, math.inf]))
    assert free_z.success, free_z.message
    oracle_confirms(UR5_ORACLE, free_z.solution.name, free_z.solution.position, far_above,
                    orientation_mode='none', position_bounds=[1e-4, 1e-4, math.inf])
    bounded = probe.call(probe.target_request(far_above, position_only=True,
                                              position_bounds=[1e-4, 1e-4, 0.1]))
    assert not bounded.success and bounded.error_code != Codes.SUCCESS


def test_axis_mode_parameter_lets_a_five_joint_arm_follow_spun_targets(ros):
    node, probe = _start_so101(ros, orientation_mode='axis')
    goal = _spun(SO101_CHAIN.fk(SO101_HOME + np.array([0.05, 0.05, -0.05, 0.05, 0.0])), 0.7)
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal))
    assert status.success and status.commanded, status.message
    oracle_confirms(SO101_ORACLE, status.solution.name, status.solution.position, goal,
                    orientation_mode='axis')
    command = probe.commands.wait_for(lambda c: True)
    assert jtc_accepts(command, SO101_CHAIN.joint_names)
    oracle_confirms(SO101_ORACLE, command.joint_names, command.points[-1].positions, goal,
                    orientation_mode='axis')


def test_the_fallback_is_never_success_and_commanded_only_when_allowed(ros):
    goal = SO101_CHAIN.fk(SO101_HOME + np.array([0.05, 0.05, -0.05, 0.05, 0.0]))
    goal[:3, :3] = transforms3d.euler.euler2mat(0.2, -0.15, 0.1) @ goal[:3, :3]
    node, probe = _start_so101(ros)
    plain = probe.call(probe.target_request(goal))
    assert not plain.success and plain.error_code in (Codes.NO_SOLUTION, Codes.TIMED_OUT)
    asked = probe.call(probe.target_request(goal, orientation_fallback=True, execute=True))
    assert not asked.success
    assert asked.error_code == Codes.ORIENTATION_UNREACHABLE, asked.message
    # The position is met (the tests' own FK), the orientation is not.
    reached = oracle_confirms(SO101_ORACLE, asked.solution.name, asked.solution.position, goal,
                              orientation_mode='none')
    assert asked.orientation_error > 1e-3
    assert rotation_angle(reached, goal) > 1e-3
    # The node's parameter is off: nothing was commanded. A reachable pose asked for with
    # execute next; commands go out in order on one topic, so its command arriving as the
    # first shows that none was sent before it.
    reachable = SO101_CHAIN.fk(SO101_HOME + np.array([0.02, 0.02, -0.02, 0.02, 0.0]))
    executed = probe.call(probe.target_request(reachable, execute=True))
    assert executed.success, executed.message
    command = probe.commands.wait_for(lambda c: True)
    assert probe.commands.count() == 1
    assert list(command.points[-1].positions) == pytest.approx(list(executed.solution.position))
    oracle_confirms(SO101_ORACLE, command.joint_names, command.points[-1].positions, reachable)
    # The closest orientation lies beyond the 5-degree default from the start: with 20 degrees,
    # and the whole timeout for the search (approximate tracking would give the exact search
    # and the fallback a millisecond), it is the fallback's own answer that is commanded.
    allowed_node, allowed = _start_so101(ros, orientation_fallback=True, max_joint_jump=0.35,
                                         approximate_tracking=False)
    allowed.publish_target(goal)
    status = allowed.statuses.wait_for(lambda s: same_position(s.target, goal))
    assert not status.success and status.error_code == Codes.ORIENTATION_UNREACHABLE
    assert status.commanded, status.message
    command = allowed.commands.wait_for(lambda c: True)
    assert jtc_accepts(command, SO101_CHAIN.joint_names)
    oracle_confirms(SO101_ORACLE, command.joint_names, command.points[-1].positions, goal,
                    orientation_mode='none')
