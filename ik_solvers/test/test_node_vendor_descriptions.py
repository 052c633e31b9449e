# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Vendor descriptions robot_state_publisher loads, sent to the ik_node on robot_description.

Each is one an earlier parser refused (an old-style transmission, an empty texture, zero effort
and velocity limits, a mimic leader off the chain); the node loads it and solves on one chain.
"""

from conftest import UrdfOracle
from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.joint import DEFAULT_VELOCITY_LIMIT
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
from test_node_support import oracle_confirms
from urdfdom_support import example_robot_urdf, VENDOR_CHAIN_IDS, VENDOR_CHAINS

Codes = ErrorCodes


@pytest.mark.parametrize('relative, base_link, tip_link', VENDOR_CHAINS, ids=VENDOR_CHAIN_IDS)
def test_the_description_loads_from_the_topic_and_a_solve_succeeds(
        ros, relative, base_link, tip_link):
    urdf_xml = example_robot_urdf(relative)
    chain = RobotModel.from_urdf(urdf_xml).chain(base_link, tip_link)
    # Collisions off: this is about loading and solving. Without their SRDFs, vendor models
    # may touch themselves at the goal (romeo's torso and trunk shapes did), which the node
    # rightly refuses; the collision tests cover the checking.
    node, probe = ros.start(base_link=base_link, tip_link=tip_link, avoid_collisions=False)
    home = chain.mid_configuration()
    probe.stream_joint_states(chain.joint_names, home)
    logs = probe.logs.count()
    probe.publish_description(urdf_xml)
    probe.wait_for_model()
    loaded = probe.logs.wait_for(lambda log: 'robot model from' in log.msg, start=logs)
    assert '%s -> %s' % (base_link, tip_link) in loaded.msg, loaded.msg

    # A goal a small move away, reached with its full pose and commanded.
    rng = np.random.default_rng(len(relative))
    width = np.where(chain.is_continuous, 2.0, chain.upper - chain.lower)
    goal_q = chain.clip(home + 0.15 * width * rng.uniform(-1.0, 1.0, chain.num_joints))
    goal = chain.fk(goal_q)
    response = probe.call(probe.target_request(goal, execute=True))
    assert response.success and response.error_code == Codes.SUCCESS, response.message
    # By the tests' own FK of the URDF text, within the node's tolerances and the URDF limits
    # (the leader off the chain of pr2's and panda's fingers included).
    oracle = UrdfOracle(urdf_xml, base_link, tip_link)
    oracle_confirms(oracle, response.solution.name, response.solution.position, goal)
    solution = np.array(response.solution.position)
    command = probe.commands.wait_for(lambda c: True)
    assert list(command.points[-1].positions) == pytest.approx(list(solution))
    oracle_confirms(oracle, command.joint_names, command.points[-1].positions, goal)

    # Joints without a positive velocity limit are named once and timed at the default limit.
    duration = command.points[-1].time_from_start
    seconds = duration.sec + 1e-9 * duration.nanosec
    # The controller's cubic from rest to rest peaks at 1.5 d / T in velocity and 6 d / T^2 in
    # acceleration; the node plans with 99 % of each limit (engine/pipeline.py).
    velocity_scale = node.get_parameter('velocity_scale').value
    speeds = 0.99 * velocity_scale * chain.velocity_limits
    acceleration = 0.99 * node.get_parameter('acceleration_limit').value
    distance = np.abs(solution - home)
    expected = max(float(np.max(1.5 * distance / speeds)),
                   float(np.max(np.sqrt(6.0 * distance / acceleration))),
                   node.get_parameter('min_duration').value)
    assert seconds == pytest.approx(expected, rel=1e-6, abs=2e-9)
    unlimited = chain.joints_without_velocity_limit
    assert all(chain.velocity_limits[chain.joint_names.index(name)] == DEFAULT_VELOCITY_LIMIT
               for name in unlimited)
    if unlimited:
        warning = probe.logs.wait_for(lambda log: 'no positive velocity limit' in log.msg,
                                      start=logs)
        assert all(name in warning.msg for name in unlimited), warning.msg
    # Logged right after the model, long before the command went out: all are in by now.
    warnings = [log.msg for log in probe.logs.messages[logs:]
                if 'no positive velocity limit' in log.msg]
    assert len(warnings) == (1 if unlimited else 0), warnings
