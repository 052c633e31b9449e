# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The node checks the pairs an SRDF keeps, and says what it leaves unchecked.

Without an SRDF it names the pairs it leaves unchecked; an arm that starts in collision is
told so clearly.

The arm of test_collision_srdf_pairs: at the zero configuration its hand touches a fixed
"thigh" (as a humanoid's wrist touches its thigh); the SRDF disables only the parent-child
pairs, so hand-thigh is checked.
"""

import time

import numpy as np
from test_collision_srdf_pairs import SRDF, URDF
from test_node_support import WAIT

from ik_solvers import RobotModel

CHAIN = RobotModel.from_urdf(URDF).chain('base_link', 'hand')
ZERO = np.zeros(CHAIN.num_joints)
#: A free configuration, the arm lifted off the thigh.
FREE = np.array([0.3, -1.0, 0.2])
IN_COLLISION = 13  # ik_solvers_interfaces/msg/ErrorCodes


def _start(ros, **parameters):
    node, probe = ros.start(base_link='base_link', tip_link='hand', **parameters)
    probe.stream_joint_states(CHAIN.joint_names, ZERO)
    probe.publish_description(URDF)
    probe.wait_for_model()
    return node, probe


def _logged(probe, *words):
    return probe.logs.wait_for(lambda log: all(word in log.msg for word in words),
                               timeout=WAIT).msg


def test_with_an_srdf_an_arm_starting_in_contact_is_refused_and_told_why(ros):
    node, probe = _start(ros, robot_description_semantic=SRDF)
    line = _logged(probe, 'SRDF does not disable', 'hand-thigh')
    assert 'checked' in line
    commands = probe.commands.count()
    # The goal itself is free: a solve without a command succeeds.
    assert probe.call(probe.target_request(CHAIN.fk(FREE))).success
    answer = probe.call(probe.target_request(CHAIN.fk(FREE), execute=True))
    assert not answer.success and answer.error_code == IN_COLLISION
    assert 'in collision where it starts' in answer.message, answer.message
    assert "'hand' and 'thigh'" in answer.message and 'SRDF' in answer.message
    assert list(answer.motion_collision_pair) == ['hand', 'thigh']
    np.testing.assert_allclose(answer.motion_collision_state.position, ZERO)
    time.sleep(0.3)
    assert probe.commands.count() == commands  # nothing commanded


def test_without_an_srdf_the_pairs_touching_at_zero_are_named_and_left_unchecked(ros):
    node, probe = _start(ros)
    line = _logged(probe, 'pairs in contact at the zero configuration are not checked')
    assert 'hand-thigh' in line and 'allow_zero_contacts' in line
    answer = probe.call(probe.target_request(CHAIN.fk(FREE), execute=True))
    assert answer.success, answer.message


def test_allow_zero_contacts_false_checks_them(ros):
    node, probe = _start(ros, allow_zero_contacts=False)
    line = _logged(probe, 'pairs in contact at the zero configuration are checked')
    assert 'hand-thigh' in line
    answer = probe.call(probe.target_request(CHAIN.fk(FREE), execute=True))
    assert answer.error_code == IN_COLLISION and 'where it starts' in answer.message, \
        answer.message
