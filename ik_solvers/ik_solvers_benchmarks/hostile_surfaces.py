# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Seeded hostile inputs for the surfaces added after the first fuzz: plain data, no ROS here.

Each generator returns ``(label, payload, bad)``: ``bad`` inputs must be refused (never
commanded, never accepted); the others are valid requests interleaved with them. Payloads:

- ``obstacle``: a dict of CollisionObject fields (``id``, ``operation``, ``frame_id``,
  ``pose`` as (x, y, z, qx, qy, qz, qw), ``primitives`` as [(type, dimensions)], ``poses``);
- ``srdf``: the text;
- ``path``: a dict of CartesianPath request fields (``waypoints`` as [(x, y, z, qx, qy, qz,
  qw, frame_id)], ``start_names``, ``start_positions`` and the numbers of the .srv);
- ``parameter``: ``(service, [(name, type, value)])`` with service ``set`` or ``atomic``.
"""

import math
import random
from typing import Any, Callable, Dict, List, Sequence, Tuple

__all__ = ['SURFACES', 'Fuzzed', 'large_srdf', 'surface_inputs']

#: (label, payload, bad)
Fuzzed = Tuple[str, Any, bool]

#: The surfaces this module fuzzes.
SURFACES = ('obstacle', 'srdf', 'path', 'parameter')

_NUMBERS = (math.nan, math.inf, -math.inf, -1.0, 0.0, 1e308, -1e308, 5e-324, 1e-300, 1e20)
_PAIR = '<disable_collisions link1="%s" link2="%s" reason="Never"/>'


def large_srdf(megabytes: float, robot: str = 'robot') -> str:
    """Return an SRDF of about ``megabytes`` MB: a few pairs among many groups."""
    group = '<group name="group_%07d"><link name="link_%07d"/></group>'
    count = int(megabytes * 1e6 / len(group % (0, 0)))
    return '<?xml version="1.0"?><robot name="%s">%s%s</robot>' % (
        robot, _PAIR % ('a', 'b'), ''.join(group % (index, index) for index in range(count)))


def _obstacle(rng: random.Random, links: Sequence[str]) -> Fuzzed:
    far = (0.0, 0.0, 5.0 + rng.random(), 0.0, 0.0, 0.0, 1.0)
    box = [(1, (0.1, 0.1, 0.1))]
    base = {'id': 'fuzz_%d' % rng.randrange(20), 'operation': 0, 'frame_id': '',
            'pose': far, 'primitives': box, 'poses': [(0, 0, 0, 0, 0, 0, 1)]}
    cases: List[Tuple[str, Dict[str, Any], bool]] = [
        ('valid far box', {}, False),
        ('remove', {'operation': 1, 'primitives': [], 'poses': []}, False),
        ('move far', {'operation': 3}, False),
        ('APPEND', {'operation': 2}, True),
        ('unknown operation', {'operation': rng.choice((4, 7, 255))}, True),
        ('bad dimension', {'primitives': [(rng.choice((1, 2, 3)), (rng.choice(
            (math.nan, math.inf, -math.inf, -1.0, 0.0)),) * 3)]}, True),
        ('wrong dimension count', {'primitives': [(2, (0.1, 0.1))]}, True),
        ('unknown primitive', {'primitives': [(rng.choice((0, 4, 99)), (0.1,))]}, True),
        ('poses do not pair', {'poses': []}, True),
        ('NaN pose', {'pose': (math.nan, 0, 5, 0, 0, 0, 1)}, True),
        ('zero quaternion', {'pose': (0, 0, 5, 0, 0, 0, 0)}, True),
        ('a link name', {'id': rng.choice(list(links))}, True),
        ('long id', {'id': 'o' * rng.choice((300, 100_000))}, True),
        ('unknown frame', {'frame_id': 'no_such_frame'}, True),
        ('65 primitives', {'primitives': box * 65, 'poses': [(0, 0, 0, 0, 0, 0, 1)] * 65},
         True),
    ]
    label, fields, bad = rng.choice(cases)
    return 'obstacle: ' + label, dict(base, **fields), bad


def _srdf(rng: random.Random, robot: str, links: Sequence[str]) -> Fuzzed:
    pair = _PAIR % ('link_a', 'link_b')
    # The valid one disables every pair of links: self-collisions are never checked, so the
    # valid calls interleaved still have answers (obstacles are still checked).
    every = ''.join(_PAIR % (first, second) for index, first in enumerate(links)
                    for second in links[index + 1:])
    cases = [
        ('valid', '<robot name="%s">%s</robot>' % (robot, every), False),
        ('empty', '', True),
        ('malformed', '<robot name="%s"><disable_collisions link1="a"' % robot, True),
        ('not a robot', '<model name="m">%s</model>' % pair, True),
        ('missing link2', '<robot name="r"><disable_collisions link1="a"/></robot>', True),
        ('entity', '<!DOCTYPE r [<!ENTITY e "x">]><robot name="r">&e;</robot>', True),
        ('binary', '\x00\x01<robot', True),
    ]
    label, text, bad = rng.choice(cases)
    return 'srdf: ' + label, text, bad


def _path(rng: random.Random, goal: Sequence[float], joints: Sequence[str]) -> Fuzzed:
    waypoint = tuple(goal) + ('',)
    number = rng.choice(_NUMBERS)
    base: Dict[str, Any] = {'waypoints': [waypoint]}
    cases: List[Tuple[str, Dict[str, Any], bool]] = [
        ('valid', {}, False),
        ('valid executed', {'execute': True, 'avoid_collisions': True}, False),
        ('no waypoints', {'waypoints': []}, True),
        ('jump_threshold', {'jump_threshold': rng.choice((math.inf, math.nan, -1.0))}, True),
        ('max_step', {'max_step': rng.choice((math.inf, math.nan, -1.0, 5e-324))}, True),
        ('max_angle_step', {'max_angle_step': rng.choice((math.inf, -1.0))}, True),
        ('relative jump', {'relative_jump_threshold': rng.choice((math.inf, -1.0))}, True),
        ('bad number waypoint', {'waypoints': [(number, 0.0, 0.3, 0, 0, 0, 1, '')]},
         not (math.isfinite(number) and abs(number) <= 100.0)),
        ('far waypoint', {'waypoints': [(1e6, 0.0, 0.3, 0, 0, 0, 1, '')]}, True),
        ('zero quaternion', {'waypoints': [tuple(goal[:3]) + (0, 0, 0, 0, '')]}, True),
        ('unknown frame', {'waypoints': [tuple(goal) + ('no_such_frame',)]}, True),
        ('start out of range', {'start_names': list(joints),
                                'start_positions': [rng.choice((math.inf, 10.0, -1e300))]
                                + [0.0] * (len(joints) - 1)}, True),
        ('unnamed start of wrong length', {'start_positions': [0.0] * (len(joints) + 1)},
         True),
        ('start with execute', {'start_names': list(joints[:1]), 'start_positions': [0.0],
                                'execute': True}, True),
        ('bad timeout', {'timeout': rng.choice((-1.0, math.inf, 3600.0))}, True),
        ('bad scale', {'velocity_scale': rng.choice((1.5, -0.1, math.nan))}, True),
        ('unknown solver', {'solver': 's' * rng.choice((10, 100_000))}, True),
    ]
    label, fields, bad = rng.choice(cases)
    return 'path: ' + label, dict(base, **fields), bad


def _parameter(rng: random.Random) -> Fuzzed:
    service = rng.choice(('set', 'atomic'))
    cases: List[Tuple[str, List[Tuple[str, int, Any]]]] = [
        ('type 99', [('solver', 99, None)]),
        ('type 99 among others', [('timeout', 3, -1.0), ('solver', 99, None)]),
        ('NOT_SET', [('timeout', 0, None)]),
        ('just above the range', [('velocity_scale', 3, 1.0000009)]),
        ('just above the timeout', [('cartesian_timeout', 3, 10.000009)]),
        ('out of range', [('timeout', 3, rng.choice((math.nan, math.inf, -1.0, 1e9)))]),
        ('wrong type', [('timeout', 4, 'fast')]),
        ('unknown solver', [('solver', 4, 'simulated_annealing')]),
        ('read-only', [('command_topic', 4, '/elsewhere')]),
        ('undeclared', [('no_such_parameter', 2, 1)]),
        ('bad tip axis', [('tip_axis', 8, [0.0, 0.0, 0.0])]),
        ('integer out of range', [('max_pending_requests', 2, rng.choice((0, -5, 10**9)))]),
        ('huge name', [('n' * 100_000, 3, 1.0)]),
    ]
    label, values = rng.choice(cases)
    return 'parameter: ' + label, (service, values), True


def surface_inputs(surface: str, count: int, *, seed: int, goal: Sequence[float],
                   joint_names: Sequence[str], link_names: Sequence[str],
                   robot_name: str) -> List[Fuzzed]:
    """
    Return ``count`` seeded inputs of one surface.

    :param surface: One of :data:`SURFACES`.
    :param count: Number of inputs.
    :param seed: Seed of the choice.
    :param goal: A reachable tip pose (x, y, z, qx, qy, qz, qw), m.
    :param joint_names: The chain's joints.
    :param link_names: The description's links.
    :param robot_name: The description's robot name (valid SRDFs use it).
    :returns: The inputs, each ``(label, payload, bad)``.
    :raises ValueError: For an unknown surface.
    """
    rng = random.Random('%s-%d' % (surface, seed))
    makers: Dict[str, Callable[[], Fuzzed]] = {
        'obstacle': lambda: _obstacle(rng, link_names),
        'srdf': lambda: _srdf(rng, robot_name, list(link_names)),
        'path': lambda: _path(rng, goal, joint_names),
        'parameter': lambda: _parameter(rng),
    }
    if surface not in makers:
        raise ValueError('unknown surface %r; one of %s' % (surface, ', '.join(SURFACES)))
    return [makers[surface]() for _ in range(count)]
