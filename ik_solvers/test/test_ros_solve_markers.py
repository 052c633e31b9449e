# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The markers of a solve: the collision slots are added with a contact and deleted after it."""

import pytest

pytest.importorskip('visualization_msgs', reason='the ROS message packages are not installed')

from geometry_msgs.msg import Pose  # noqa: E402
from ik_solvers.engine.outcome import CollisionVerdict  # noqa: E402
from ik_solvers.ros.markers import COLLISION_NAMESPACE, MAX_COLLISION_MARKERS, \
    REACHED_NAMESPACE, solve_markers, TARGET_NAMESPACE  # noqa: E402
import numpy as np  # noqa: E402


def _slots(markers):
    return [marker for marker in markers.markers if marker.ns == COLLISION_NAMESPACE]


def _contact():
    pose = np.eye(4)
    pose[:3, 3] = (0.1, 0.2, 0.3)
    return CollisionVerdict(checked=True, pairs=(('box', 'link3'),),
                            poses=(('box', pose), ('link3', pose)))


def test_each_answer_adds_its_contacts_and_deletes_every_other_slot_in_its_frame():
    target, reached = Pose(), Pose()
    reached.position.z = 0.5
    for frame in ('base_link', 'world', 'base_link'):
        touching = solve_markers(frame, target, reached, False, _contact())
        clear = solve_markers(frame, target, reached, True, CollisionVerdict(checked=True))
        for markers in (touching, clear):
            assert [marker.ns for marker in markers.markers[:2]] == [TARGET_NAMESPACE,
                                                                     REACHED_NAMESPACE]
            slots = _slots(markers)
            assert [marker.id for marker in slots] == list(range(MAX_COLLISION_MARKERS + 1))
            assert all(marker.header.frame_id == frame for marker in markers.markers)
        added = [marker for marker in _slots(touching) if marker.action == marker.ADD]
        assert [marker.text for marker in added[:2]] == ['box', 'link3']
        assert added[-1].type == added[-1].TEXT_VIEW_FACING and 'box - link3' in added[-1].text
        assert len(added) == 3
        # The answer after the contact deletes every slot, the text's too.
        assert all(marker.action == marker.DELETE for marker in _slots(clear))
    # A contact drawn after clear answers is drawn in full, whatever was sent before.
    again = solve_markers('base_link', target, reached, False, _contact())
    assert sum(marker.action == marker.ADD for marker in _slots(again)) == 3
