# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A goal published once is reached, and no motion passes through an obstacle, over real DDS.

The ik_node and the simulated executor run as the launch file runs them (the bundled Panda);
the arm's played joint states are recorded and judged by forward kinematics and by a collision
check built apart from the node's (``node_collision_support.IndependentCheck``).
"""

from pathlib import Path
import time

from ik_solvers.ros.ik_node import IKNode
from ik_solvers.visualization.sim_executor import SimulatedExecutor
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
import rclpy
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from node_collision_support import box_message, IndependentCheck, ObstaclePublisher
from test_node_support import Collector, Probe, Spinner, unique_namespace, wait_until
import yaml

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
PANDA = (PACKAGE_ROOT / 'urdf' / 'panda_like.urdf').read_text()
BASE, TIP = 'panda_link0', 'panda_hand_tcp'
CONFIG = PACKAGE_ROOT / 'config' / 'ik_solvers.yaml'
Codes = ErrorCodes
# The node's tolerances (config/ik_solvers.yaml); the final joint states may sit a rounding
# away from the command.
POSITION_TOLERANCE = 1e-4
ORIENTATION_TOLERANCE = 1e-3
# Largest joint change between two recorded joint states that is judged without filling in:
# the executor publishes at 50 Hz.
FILL_STEP = 0.002


@pytest.fixture
def panda_cell():
    """Start an ik_node with the default parameters, the simulated executor and a probe."""
    parameters = yaml.safe_load(CONFIG.read_text())['ik_node']['ros__parameters']
    parameters.update(base_link=BASE, tip_link=TIP, command_topic='commands')
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    namespace = unique_namespace()
    nodes = []
    try:
        ik_node = IKNode(namespace=namespace, context=context, parameter_overrides=[
            Parameter(name, value=value) for name, value in parameters.items()])
        executor = SimulatedExecutor(namespace=namespace, context=context, parameter_overrides=[
            Parameter('command_topic', value='commands'),
            # The probe can publish joint states too; only the executor's count here.
            Parameter('yield_to_other_publishers', value=False)])
        probe = Probe(context, namespace)
        states = Collector()
        probe.node.create_subscription(JointState, 'joint_states', states, 1000)
        for node in (ik_node, executor, probe.node):
            nodes.append(node)
            spinner.executor.add_node(node)
        probe.wait_for_ik_node()
        probe.publish_description(PANDA)
        probe.wait_for_model()
        yield probe, states
    finally:
        spinner.stop()
        for node in nodes:
            node.destroy_node()
        rclpy.shutdown(context=context)


def _positions(check, message):
    by_name = dict(zip(message.name, message.position))
    return np.array([by_name[name] for name in check.chain.joint_names])


def _settled(states, check, *, quiet=1.0, timeout=60.0):
    """Wait until the joint states stop moving for ``quiet`` s; return the last."""
    deadline = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        q = _positions(check, states.messages[-1])
        if last is None or np.max(np.abs(q - last)) > 1e-9:
            last, since = q, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return q
    raise AssertionError('the arm never came to rest')


def _played_contacts(check, states, start):
    """Every recorded joint state from ``start`` on, and the lines between, by the check."""
    played = [_positions(check, message) for message in states.messages[start:]]
    found = []
    for a, b in zip(played[:-1], played[1:]):
        pieces = max(1, int(np.ceil(np.max(np.abs(b - a)) / FILL_STEP)))
        for k in range(pieces):
            q = a + (b - a) * (k / pieces)
            pairs = check.contacts(q)
            if pairs:
                found.append((q, pairs))
    return found


def _errors(chain, q, goal):
    reached = chain.fk(q)
    cosine = (np.trace(reached[:3, :3].T @ goal[:3, :3]) - 1.0) / 2.0
    return (float(np.linalg.norm(reached[:3, 3] - goal[:3, 3])),
            float(np.arccos(np.clip(cosine, -1.0, 1.0))))


def test_a_goal_published_once_is_reached(panda_cell):
    probe, states = panda_cell
    check = IndependentCheck(PANDA, BASE, TIP)
    assert wait_until(lambda: states.count() > 0)
    start = _positions(check, states.messages[-1])
    goal = check.chain.fk(start)
    goal[:3, 3] += (0.0, 0.2, -0.05)  # 20 cm sideways: far more than one step of 5 degrees
    first = probe.statuses.count()
    probe.publish_target(goal, BASE)
    final = probe.statuses.wait_for(lambda s: s.message.startswith('goal '), start=first,
                                    timeout=60.0)
    assert final.success and final.message.startswith('goal reached'), final.message
    q = _settled(states, check)
    position_error, orientation_error = _errors(check.chain, q, goal)
    assert position_error <= POSITION_TOLERANCE and orientation_error <= ORIENTATION_TOLERANCE
    # The first answer was the drag's step, not the goal: the goal was reached later.
    assert probe.statuses.messages[first].error_code == Codes.APPROXIMATE


def _box_across(check, start, turn):
    """Place a goal ``turn`` rad of the first joint away and a box where the hand passes."""
    chain = check.chain
    goal_q = start.copy()
    goal_q[0] += turn
    middle = start.copy()
    middle[0] += turn / 2.0
    box = np.eye(4)
    box[:3, 3] = chain.fk(middle)[:3, 3]
    return chain.fk(goal_q), goal_q, box


def test_a_solve_ik_execute_across_a_box_goes_around_it_or_is_refused(panda_cell):
    probe, states = panda_cell
    assert wait_until(lambda: states.count() > 0)
    bare = IndependentCheck(PANDA, BASE, TIP)
    start = _positions(bare, states.messages[-1])
    goal, goal_q, box = _box_across(bare, start, 1.2)
    size = (0.12, 0.12, 0.12)
    check = IndependentCheck(PANDA, BASE, TIP, [('box', box, size)])
    # The straight motion crosses the box, and both of its ends are clear of it.
    line = [start + (goal_q - start) * t for t in np.linspace(0.0, 1.0, 200)]
    assert any(check.contacts(q) for q in line)
    assert not check.contacts(start) and not check.contacts(goal_q)
    ObstaclePublisher(probe).send(box_message('box', box, size, frame_id=BASE))
    commands = probe.commands.count()
    recorded = states.count()
    seed = probe.target_request(goal, execute=True)
    seed.target.header.frame_id = BASE
    seed.seed.name = list(bare.chain.joint_names)
    seed.seed.position = [float(value) for value in goal_q]
    response = probe.call(seed)
    if response.error_code == Codes.SUCCESS:
        # Around the box, or straight to another solution of the pose whose way is free.
        assert ('routed around it by OMPL' in response.message
                or "another solution's is free" in response.message), response.message
        q = _settled(states, check)
        assert _errors(check.chain, q, goal)[0] <= POSITION_TOLERANCE
    else:  # refused: named, and nothing commanded
        assert response.error_code == Codes.IN_COLLISION and "'box'" in response.message
        assert 'box' in response.motion_collision_pair, response.motion_collision_pair
        time.sleep(0.5)
        assert probe.commands.count() == commands
    assert _played_contacts(check, states, recorded) == []


def test_a_streamed_goal_across_a_box_is_never_commanded_through_it(panda_cell):
    probe, states = panda_cell
    assert wait_until(lambda: states.count() > 0)
    bare = IndependentCheck(PANDA, BASE, TIP)
    start = _positions(bare, states.messages[-1])
    goal, goal_q, box = _box_across(bare, start, 0.8)
    size = (0.12, 0.12, 0.12)
    check = IndependentCheck(PANDA, BASE, TIP, [('box', box, size)])
    ObstaclePublisher(probe).send(box_message('box', box, size, frame_id=BASE))
    recorded = states.count()
    first = probe.statuses.count()
    probe.publish_target(goal, BASE)
    final = probe.statuses.wait_for(lambda s: s.message.startswith('goal '), start=first,
                                    timeout=60.0)
    q = _settled(states, check)
    assert _played_contacts(check, states, recorded) == []
    if final.success:
        assert _errors(check.chain, q, goal)[0] <= POSITION_TOLERANCE
    else:
        assert final.message.startswith('closest collision-free approach'), final.message
