# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Vendor descriptions robot_state_publisher loads, sent to the ik_node on robot_description.

Each is one an earlier parser refused (an old-style transmission, an empty texture, zero effort
and velocity limits, a mimic leader off the chain); the node loads it and solves on one chain.
"""

from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.joint import DEFAULT_VELOCITY_LIMIT
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
import pytest
from test_node_support import Ros, rotation_angle
from urdfdom_support import example_robot_urdf

Codes = SolveIK.Response
POSITION_TOLERANCE = Ros.DEFAULTS['position_tolerance']
ORIENTATION_TOLERANCE = Ros.DEFAULTS['orientation_tolerance']

# (description, base link, tip link): the tip is a leaf at the end of the longest moving chain.
DESCRIPTIONS = [
    ('pr2_description/urdf/pr2.urdf', 'base_footprint', 'r_gripper_r_finger_tip_link'),
    ('icub_description/robots/icub.urdf', 'root_link', 'r_hand'),
    ('icub_description/robots/icub_reduced.urdf', 'root_link', 'r_hand'),
    ('romeo_description/urdf/romeo_laas_small.urdf', 'base_link', 'r_wrist'),
    ('romeo_description/urdf/romeo.urdf', 'base_link', 'r_wrist'),
    ('double_pendulum_description/urdf/double_pendulum.urdf', 'base_link', 'link2'),
    ('double_pendulum_description/urdf/double_pendulum_continuous.urdf', 'base_link', 'link2'),
    ('double_pendulum_description/urdf/double_pendulum_simple.urdf', 'base_link', 'link2'),
    ('iris_description/robots/iris.urdf', 'iris__base_link', 'iris__rotor_0'),
    ('panda_description/urdf/panda.urdf', 'panda_link0', 'panda_rightfinger'),
]


@pytest.mark.parametrize('relative, base_link, tip_link', DESCRIPTIONS,
                         ids=[entry[0].rsplit('/', 1)[1] + ':' + entry[2]
                              for entry in DESCRIPTIONS])
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
    assert list(response.solution.name) == list(chain.joint_names)
    solution = np.array(response.solution.position)
    reached = chain.fk(solution)
    assert np.linalg.norm(reached[:3, 3] - goal[:3, 3]) <= POSITION_TOLERANCE
    assert rotation_angle(reached, goal) <= ORIENTATION_TOLERANCE
    assert chain.within_limits(solution)
    command = probe.commands.wait_for(lambda c: True)
    assert list(command.points[-1].positions) == pytest.approx(list(solution))

    # Joints without a positive velocity limit are named once and timed at the default limit.
    duration = command.points[-1].time_from_start
    seconds = duration.sec + 1e-9 * duration.nanosec
    velocity_scale = node.get_parameter('velocity_scale').value
    speeds = velocity_scale * chain.velocity_limits
    expected = max(float(np.max(np.abs(solution - home) / speeds)),
                   node.get_parameter('min_duration').value)
    assert seconds == pytest.approx(expected, abs=2e-9)
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
