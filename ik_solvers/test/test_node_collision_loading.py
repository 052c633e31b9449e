# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node is ready with its collision geometry loaded, over DDS.

A mesh of two million triangles, loaded off the executor thread, holds up no answer
meanwhile.
"""

from pathlib import Path
import sys
import time

from ik_solvers_interfaces.msg import ErrorCodes
from ik_solvers.kinematics import RobotModel
import numpy as np
from test_node_support import (
    oracle_confirms,
    start_ur5_node,
    UR5,
    UR5_CHAIN,
    UR5_HOME,
    UR5_ORACLE,
    wait_until,
)

Codes = ErrorCodes
PANDA = (Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf').read_text()
PANDA_MODEL = RobotModel.from_urdf(PANDA)
PANDA_CHAIN = PANDA_MODEL.chain('panda_link0', 'panda_hand_tcp')
HUGE_TRIANGLES = 2_000_000
# Hang bound, s: the load takes seconds (about a minute beside `stress --cpu 2`); only a load
# that never ends reaches it.
HANG_BOUND = 300.0


def write_binary_stl(path: Path, triangles: int, *, seed: int = 21) -> None:
    """Write ``triangles`` small random triangles inside a 20 cm cube as a binary STL."""
    record = np.dtype([('normal', '<f4', 3), ('vertices', '<f4', (3, 3)), ('attribute', '<u2')])
    generator = np.random.default_rng(seed)
    data = np.zeros(triangles, dtype=record)
    corners = generator.uniform(-0.1, 0.1, size=(triangles, 1, 3))
    data['vertices'] = corners + generator.uniform(0.0, 0.01, size=(triangles, 3, 3))
    data['normal'] = (0.0, 0.0, 1.0)
    with open(path, 'wb') as stream:
        stream.write(b'binary STL written by the ik_solvers tests'.ljust(80, b' '))
        stream.write(np.uint32(triangles).tobytes())
        stream.write(data.tobytes())


def with_scenery_mesh(urdf_xml: str, mesh_path: Path) -> str:
    """Add a link fixed beside the arm's base whose collision geometry is the given mesh."""
    scenery = ('<link name="scenery"><collision><origin xyz="0 0 0" rpy="0 0 0"/><geometry>'
               '<mesh filename="file://%s"/></geometry></collision></link>'
               '<joint name="scenery_joint" type="fixed"><parent link="base_link"/>'
               '<child link="scenery"/><origin xyz="1.5 0 0" rpy="0 0 0"/></joint>'
               % mesh_path)
    return urdf_xml.replace('</robot>', scenery + '</robot>')


def test_the_node_is_ready_with_its_collision_geometry_loaded(ros):
    started = time.monotonic()
    node, probe = ros.start(base_link='panda_link0', tip_link='panda_hand_tcp')
    probe.stream_joint_states(PANDA_CHAIN.joint_names, PANDA_CHAIN.mid_configuration())
    probe.publish_description(PANDA)
    first = probe.wait_for_model()
    ready = time.monotonic() - started
    # The description is adopted with its geometry: no answer is ever unchecked meanwhile.
    assert first.collision_checked and list(first.unchecked_links) == [], first.message
    print('ready with collision geometry in %.2f s' % ready)  # figure for the report (-s)
    under_the_table = PANDA_CHAIN.fk(PANDA_CHAIN.mid_configuration())
    under_the_table[2, 3] = -0.1
    answer = probe.call(probe.target_request(under_the_table))
    assert answer.error_code in (Codes.IN_COLLISION, Codes.NO_SOLUTION, Codes.TIMED_OUT)
    if answer.error_code == Codes.IN_COLLISION:
        assert 'table' in answer.collision_pair, answer.message


def _loading_meshes() -> bool:
    """
    Tell whether a thread of this process is inside ``load_geometry_apart``.

    That is the node's loader, waiting for the process of its own that reads and reduces
    the meshes of a description.
    """
    for frame in sys._current_frames().values():
        while frame is not None:
            if (frame.f_code.co_name == 'load_geometry_apart'
                    and Path(frame.f_code.co_filename).name == 'loading_apart.py'):
                return True
            frame = frame.f_back
    return False


def test_a_two_million_triangle_mesh_holds_up_no_answer_while_it_loads(ros, tmp_path):
    mesh = tmp_path / 'huge.stl'
    write_binary_stl(mesh, HUGE_TRIANGLES)
    node, probe = start_ur5_node(ros)
    goal = UR5_CHAIN.fk(UR5_HOME)
    request = probe.target_request(goal)
    # Generous: the goal is where the joint states put the arm, solved at once; a loaded
    # machine must not turn that into a timeout.
    request.timeout.sec = 2
    handled = node.descriptions_received
    probe.publish_description(with_scenery_mesh(UR5, mesh))
    # Calls start once the node's loader is seen loading the meshes (by its stack frames), so
    # every answer counted below was asked for and came back while the mesh was loading.
    assert wait_until(_loading_meshes, timeout=HANG_BOUND), 'the mesh was never loaded'
    delays = []
    answers = []
    during_load = 0
    deadline = time.monotonic() + HANG_BOUND
    while node.descriptions_received == handled and time.monotonic() < deadline:
        asked = time.monotonic()
        answers.append(probe.call(request))
        delays.append(time.monotonic() - asked)
        during_load += _loading_meshes()
    assert node.descriptions_received > handled, 'the description was never handled'
    # Answers kept coming, from the model in use, while the mesh loaded: a load that held
    # them up would answer the first call only once it was over. Reading and reducing two
    # million triangles lasts seconds, hundreds of round trips (printed below).
    assert during_load >= 3, (during_load, len(answers))
    assert all(answer.success and answer.collision_checked for answer in answers), \
        [answer.message for answer in answers if not answer.success]
    for answer in answers:
        oracle_confirms(UR5_ORACLE, answer.solution.name, answer.solution.position, goal)
    print('%d answers while the mesh loaded; SolveIK round trip median %.1f ms, max %.1f ms'
          % (during_load, 1e3 * np.median(delays), 1e3 * max(delays)))
    after = probe.call(request)
    assert after.success and after.collision_checked, after.message
    oracle_confirms(UR5_ORACLE, after.solution.name, after.solution.position, goal)
    assert 'scenery' not in after.unchecked_links
    hull = probe.logs.wait_for(lambda log: 'convex hull' in log.msg and 'huge.stl' in log.msg)
    assert "'scenery'" in hull.msg
