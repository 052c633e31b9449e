# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ``surfaces`` scenario of :mod:`.node_stress`: obstacles, SRDF, paths and parameters fuzzed.

Seeded inputs of :mod:`.hostile_surfaces` for every surface, shuffled together, with a valid
SolveIK call every 20 inputs, the description and the SRDF replaced now and then while calls
are served, an executed path with an obstacle put in its way 10 ms after the request, and the
largest inputs (an SRDF of 15.5 MB, a path of 100,000 waypoints) with a valid call sent while
each is refused. Counted: crashes, hangs (an answer later than the timeout + 1 s), unanswered
calls, invalid commands, commands or accepted changes for a bad input, commands into an
obstacle the node had accepted, obstacle messages neither handled nor reported lost, and the
node's resident memory after the largest inputs were replaced.
"""

from pathlib import Path
import random
import re
import time
from typing import Any, Dict, List, Optional

import numpy as np

from .hostile_surfaces import large_srdf, SURFACES, surface_inputs
from .stress_client import DescriptionPublisher, IKNodeProcess, StressClient, TimedCall
from .stress_requests import NODE_TIMEOUT, pose_fields, StressSetup, valid_request, \
    xyzw_quaternion
from ik_solvers.collision import (ADD, Box, CollisionModel, load_robot_geometry, Obstacle,
                                  ObstacleSet, Primitive)

__all__ = ['run_surfaces']

HANG_MARGIN = 1.0
# Seconds a CartesianPath call may take: its default timeout (cartesian_timeout, 1 s).
PATH_TIMEOUT = 1.0
_IN_FLIGHT = 16


def _obstacle_message(client: StressClient, fields: Dict[str, Any]) -> Any:
    from shape_msgs.msg import SolidPrimitive
    message = client.message('CollisionObject')
    message.id, message.operation = fields['id'], bytes([fields['operation']])
    message.header.frame_id = fields['frame_id']
    pose_fields(message.pose, fields['pose'][:3], fields['pose'][3:])
    for kind, dimensions in fields['primitives']:
        message.primitives.append(SolidPrimitive(
            type=kind, dimensions=[float(value) for value in dimensions]))
    for pose in fields['poses']:
        placed = type(message.pose)()
        pose_fields(placed, pose[:3], pose[3:])
        message.primitive_poses.append(placed)
    return message


def _path_request(client: StressClient, fields: Dict[str, Any]) -> Any:
    request = client.message('PathRequest')
    stamped_type = type(client.message('PoseStamped'))
    waypoints = []
    for point in fields['waypoints']:
        stamped = stamped_type()
        pose_fields(stamped.pose, point[:3], point[3:7])
        stamped.header.frame_id = point[7]
        waypoints.append(stamped)
    request.waypoints = waypoints
    request.start.name = list(fields.get('start_names', []))
    request.start.position = [float(value) for value in fields.get('start_positions', [])]
    for name in ('max_step', 'max_angle_step', 'jump_threshold', 'relative_jump_threshold',
                 'timeout', 'velocity_scale'):
        setattr(request, name, float(fields.get(name, 0.0)))
    request.execute = bool(fields.get('execute', False))
    request.avoid_collisions = bool(fields.get('avoid_collisions', False))
    request.solver = fields.get('solver', '')
    return request


def _parameter_request(client: StressClient, service: str, values) -> Any:
    from rcl_interfaces.msg import Parameter, ParameterValue
    parameters = []
    for name, kind, value in values:
        message = ParameterValue(type=kind)
        field = {2: 'integer_value', 3: 'double_value', 4: 'string_value',
                 8: 'double_array_value'}.get(kind)
        if field is not None:
            setattr(message, field, value)
        parameters.append(Parameter(name=name, value=message))
    request = client.message('SetParameters' if service == 'set' else 'SetParametersAtomically')
    request.parameters = parameters
    return request


def _scene_counts(client: StressClient) -> tuple:
    for _, status in reversed(client.statuses[-50:]):
        match = re.search(r'obstacle messages: (\d+) handled, (\d+) lost',
                          status.collision_scene)
        if match:
            return int(match.group(1)), int(match.group(2))
    return 0, 0


def _invalid_commands(setup: StressSetup, client: StressClient) -> int:
    invalid = 0
    for _, command in client.commands:
        if list(command.joint_names) != list(setup.chain.joint_names) or not command.points:
            invalid += 1
            continue
        for point in command.points:
            q = np.asarray(point.positions, dtype=float)
            if not (np.isfinite(q).all() and setup.chain.within_limits(q, tolerance=1e-6)):
                invalid += 1
                break
    return invalid


def _stream_goal(setup: StressSetup, client: StressClient) -> None:
    goal = setup.goal(0.1)
    message = client.message('PoseStamped')
    pose_fields(message.pose, goal[:3, 3], xyzw_quaternion(goal))
    client.targets.publish(message)


def _late_obstacle(setup: StressSetup, client: StressClient, checker: Any,
                   late_refusals: List[int]) -> int:
    """Run one executed path with a box put on it 10 ms later; return commands into it."""
    start = setup.chain.fk(setup.home)
    end = start.copy()
    end[2, 3] -= 0.09
    quaternion = xyzw_quaternion(end)
    request = _path_request(client, {'waypoints': [tuple(end[:3, 3]) + tuple(quaternion)
                                                   + ('',)],
                                     'execute': True, 'avoid_collisions': True,
                                     'max_step': 0.09 / 2000})
    logs = len(client.logs)
    call = client.call(request, time.monotonic() + PATH_TIMEOUT + HANG_MARGIN, 'late',
                       client.cartesian_path)
    time.sleep(0.01)
    middle = start[:3, 3] - np.array([0.0, 0.0, 0.045])
    box = {'id': 'late_box', 'operation': 0, 'frame_id': setup.base_link,
           'pose': tuple(middle) + (0.0, 0.0, 0.0, 1.0), 'primitives': [(1, (0.06,) * 3)],
           'poses': [(0, 0, 0, 0, 0, 0, 1)]}
    client.obstacles.publish(_obstacle_message(client, box))
    call.wait(PATH_TIMEOUT + 5.0)
    accepted = client.logged_since(logs, "obstacle 'late_box'")
    violations = 0
    if call.response is not None and call.response.commanded and accepted:
        pose = np.eye(4)
        pose[:3, 3] = middle
        model = checker.with_obstacles(ObstacleSet().apply(Obstacle(
            'late_box', pose, (Primitive(Box(size=(0.06,) * 3)),), ADD)))
        violations = int(any(any('late_box' in pair for pair in model.check(
            np.asarray(point.positions)).pairs) for point in call.response.trajectory.points))
    client.obstacles.publish(_obstacle_message(client, dict(box, operation=1, primitives=[],
                                                            poses=[])))
    if call.response is not None and call.response.error_code == 13:
        late_refusals.append(1)  # IN_COLLISION: planned or sent against the box
    return violations


def run_surfaces(setup: StressSetup, client: StressClient, node: IKNodeProcess,
                 per_surface: int, seed: int, directory: Path) -> Dict[str, Any]:
    """
    Fuzz every surface ``per_surface`` times; return what was counted (see the module).

    :param directory: Where the large SRDF is written for the process that publishes it.
    """
    from ik_solvers.kinematics import RobotModel
    model = RobotModel.from_urdf(setup.urdf_xml)
    goal = setup.goal(0.0)
    goal7 = tuple(goal[:3, 3]) + tuple(xyzw_quaternion(goal))
    inputs = []
    for surface in SURFACES:
        inputs += [(surface,) + item for item in surface_inputs(
            surface, per_surface, seed=seed, goal=goal7, joint_names=setup.chain.joint_names,
            link_names=model.link_names, robot_name=model.name)]
    random.Random(seed).shuffle(inputs)
    checker = CollisionModel(model, setup.chain, load_robot_geometry(setup.urdf_xml))
    links = list(model.link_names)
    small_srdf = '<robot name="%s">%s</robot>' % (model.name, ''.join(
        '<disable_collisions link1="%s" link2="%s"/>' % (first, second)
        for index, first in enumerate(links) for second in links[index + 1:]))
    semantic = client.semantic_description
    calls: List[TimedCall] = []
    bad_calls: List[TimedCall] = []
    counts: Dict[str, int] = {surface: 0 for surface in SURFACES}
    obstacles_sent = 0
    into_obstacles = late_runs = 0
    late_refusals: List[int] = []
    started = time.monotonic()
    for index, (surface, label, payload, bad) in enumerate(inputs):
        in_flight = [call for call in calls[-4 * _IN_FLIGHT:] if call.answered is None]
        if len(in_flight) >= _IN_FLIGHT:
            in_flight[0].wait(in_flight[0].deadline - time.monotonic())
        counts[surface] += 1
        if surface == 'obstacle':
            client.obstacles.publish(_obstacle_message(client, payload))
            obstacles_sent += 1
        elif surface == 'srdf':
            semantic.publish(type(client.message('String'))(data=payload))
        elif surface == 'path':
            timeout = payload.get('timeout', 0.0)
            timeout = timeout if 0.0 < timeout <= 10.0 else PATH_TIMEOUT
            call = client.call(_path_request(client, payload),
                               time.monotonic() + timeout + HANG_MARGIN, label,
                               client.cartesian_path)
            calls.append(call)
            if bad:
                bad_calls.append(call)
        else:
            service, values = payload
            call = client.call(_parameter_request(client, service, values),
                               time.monotonic() + HANG_MARGIN + 1.0, label,
                               client.set_parameters if service == 'set'
                               else client.set_parameters_atomically)
            calls.append(call)
            bad_calls.append(call)
        if index % 20 == 19:
            calls.append(client.call(valid_request(client, setup.goal()), time.monotonic()
                                     + NODE_TIMEOUT + HANG_MARGIN, 'valid'))
            _stream_goal(setup, client)
        if index % 500 == 250:  # the description and the SRDF change while calls are served
            client.description.publish(type(client.message('String'))(data=setup.urdf_xml))
            semantic.publish(type(client.message('String'))(data=small_srdf))
        if index % 1000 == 500:
            late_runs += 1
            into_obstacles += _late_obstacle(setup, client, checker, late_refusals)
    # The largest inputs, each with a valid call sent while it is refused or read; the memory
    # is compared with what it was just before them. The SRDF comes from a process of its
    # own, as MoveIt's would: megabytes from the client would queue its calls behind them.
    for call in calls:
        call.wait(call.deadline - time.monotonic())
    rss_baseline = node.rss_megabytes()
    oversized: Dict[str, Optional[float]] = {}
    publisher = DescriptionPublisher(client.namespace, large_srdf(15.5, model.name),
                                     directory, topic='robot_description_semantic')
    time.sleep(1.0)
    probe = client.call(valid_request(client, setup.goal()), time.monotonic() + NODE_TIMEOUT
                        + 0.5, 'valid during the large SRDF')
    calls.append(probe)
    probe.wait(30.0)
    oversized['srdf_valid_call_s'] = probe.latency
    big_path = client.call(_path_request(client, {'waypoints': [goal7 + ('',)] * 100_000}),
                           time.monotonic() + PATH_TIMEOUT + HANG_MARGIN, 'oversized path',
                           client.cartesian_path)
    probe = client.call(_path_request(client, {'waypoints': [goal7 + ('',)]}),
                        time.monotonic() + PATH_TIMEOUT + 0.5, 'valid path after oversized',
                        client.cartesian_path)
    calls += [big_path, probe]
    bad_calls.append(big_path)
    probe.wait(30.0)
    oversized['path_valid_call_s'] = probe.latency
    publisher.stop()
    semantic.publish(type(client.message('String'))(data=small_srdf))
    grace = time.monotonic() + 10.0
    for call in calls:
        call.wait(max(call.deadline, grace) - time.monotonic())
    time.sleep(2.0)  # the last statuses and the memory given back
    _stream_goal(setup, client)
    time.sleep(0.5)
    handled, lost = _scene_counts(client)
    bad_accepted = 0
    for call in bad_calls:
        response = call.response
        if response is None:
            continue
        if hasattr(response, 'commanded'):
            bad_accepted += int(bool(response.commanded))
        elif hasattr(response, 'results'):
            bad_accepted += sum(1 for result in response.results if result.successful)
        else:
            bad_accepted += int(bool(response.result.successful))
    rss_after = node.rss_megabytes()
    return {
        'inputs': len(inputs), 'per_surface': counts, 'seconds': round(
            time.monotonic() - started, 1), 'crashed': not node.alive,
        'calls': len(calls),
        'unanswered': sum(1 for call in calls if call.answered is None),
        'hangs': sum(1 for call in calls if call.answered is None
                     or call.answered > call.deadline),
        'late_labels': sorted({call.label for call in calls
                               if call.answered is None or call.answered > call.deadline}),
        'invalid_commands': _invalid_commands(setup, client),
        'bad_input_commanded_or_accepted': bad_accepted,
        'commands_into_accepted_obstacles': into_obstacles,
        'late_obstacle_runs': late_runs, 'late_obstacle_in_collision': len(late_refusals),
        'obstacles_sent': obstacles_sent, 'obstacles_handled': handled,
        'obstacles_lost_reported': lost,
        'obstacles_silently_dropped': max(0, obstacles_sent - handled - lost),
        'valid_solved': sum(1 for call in calls if call.label == 'valid'
                            and call.response is not None and call.response.success),
        'oversized': {key: None if value is None else round(value, 3)
                      for key, value in oversized.items()},
        'rss_mb_baseline': round(rss_baseline, 1), 'rss_mb_after': round(rss_after, 1),
        'rss_within_10_percent': bool(rss_after <= 1.1 * rss_baseline)}
