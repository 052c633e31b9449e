# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Inputs a hostile or broken client sends the ik_node, as plain data (no ROS needed here).

Every input is one :class:`HostileInput`: a SolveIK request, a joint_states message, a target
pose or a robot description, each wrong in one way a real client can be wrong: non-finite or
oversized numbers and lists, repeated or unknown names, malformed or rule-breaking URDFs, and
descriptions above the size bound. :mod:`.node_stress` sends them; the node tests reuse them.
"""

from dataclasses import dataclass, field
import math
import random
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

__all__ = [
    'HostileInput',
    'KINDS',
    'bad_descriptions',
    'bad_joint_states',
    'bad_requests',
    'bad_targets',
    'fuzz_inputs',
    'padded_description',
    'repeated_names',
]

#: The channels an input arrives on.
KINDS = ('request', 'joint_states', 'target', 'description')

Position = Tuple[float, float, float]
Quaternion = Tuple[float, float, float, float]


@dataclass(frozen=True)
class HostileInput:
    """
    One bad input.

    :ivar kind: One of :data:`KINDS`.
    :ivar label: What is wrong with it, for reports.
    :ivar payload: ``request``: a dict of SolveIK request fields (``position``,
        ``orientation``, ``frame_id``, ``seed_names``, ``seed_positions``, ``solver``,
        ``position_tolerance``, ``orientation_tolerance``, ``timeout`` in seconds);
        ``joint_states``: ``(names, positions)``; ``target``: ``(position, orientation,
        frame_id)``; ``description``: the URDF text.
    """

    kind: str
    label: str
    payload: Any = field(repr=False)


def repeated_names(count: int, prefix: str = 'joint_') -> List[str]:
    """
    Return ``count`` joint names of which the last repeats the first.

    :param count: Number of names, at least 2.
    :param prefix: Start of every name.
    :returns: The names.
    """
    names = ['%s%d' % (prefix, index) for index in range(count)]
    names[-1] = names[0]
    return names


def padded_description(urdf_xml: str, extra_links: int, parent_link: str) -> str:
    """
    Add fixed links to a valid description: the same chain in a larger text.

    :param urdf_xml: A valid URDF.
    :param extra_links: Number of links to add, each by a fixed joint below ``parent_link``.
    :param parent_link: A link of ``urdf_xml``.
    :returns: The larger URDF; about 100 bytes per extra link.
    """
    extra = ''.join(
        '<link name="pad_%d"/><joint name="pad_joint_%d" type="fixed"><parent link="%s"/>'
        '<child link="pad_%d"/></joint>\n' % (index, index, parent_link, index)
        for index in range(extra_links))
    head, tail = urdf_xml.rsplit('</robot>', 1)
    return head + extra + '</robot>' + tail


def bad_requests(position: Position, orientation: Quaternion, joint_names: Sequence[str]
                 ) -> List[HostileInput]:
    """
    Return SolveIK requests that must be refused with an error code, one per kind of mistake.

    :param position: A reachable target position, m; each request spoils one field.
    :param orientation: Its orientation (x, y, z, w).
    :param joint_names: The chain's joints.
    :returns: The requests.
    """
    base = {'position': position, 'orientation': orientation}
    names = list(joint_names)
    cases: List[Tuple[str, Dict[str, Any]]] = [
        ('NaN position', {'position': (math.nan, position[1], position[2])}),
        ('infinite position', {'position': (position[0], math.inf, position[2])}),
        ('zero quaternion', {'orientation': (0.0, 0.0, 0.0, 0.0)}),
        ('non-unit quaternion', {'orientation': (0.0, 0.0, 0.6, 0.6)}),
        ('NaN quaternion', {'orientation': (math.nan, 0.0, 0.0, 1.0)}),
        ('unknown frame', {'frame_id': 'no_such_frame'}),
        ('100 kB frame id', {'frame_id': 'f' * 100_000}),
        ('unknown solver', {'solver': 'simulated_annealing'}),
        ('100 kB solver name', {'solver': 's' * 100_000}),
        ('negative timeout', {'timeout': -1.0}),
        ('one-hour timeout', {'timeout': 3600.0}),
        ('NaN tolerance', {'position_tolerance': math.nan}),
        ('negative tolerance', {'orientation_tolerance': -1.0}),
        ('seed of unknown joints', {'seed_names': ['gripper'], 'seed_positions': [0.0]}),
        ('seed names and positions differ', {'seed_names': names[:2], 'seed_positions': [0.0]}),
        ('NaN seed', {'seed_names': names[:1], 'seed_positions': [math.nan]}),
        ('repeated seed name', {'seed_names': [names[0], names[0]],
                                'seed_positions': [0.0, 0.1]}),
        ('seed positions without names', {'seed_positions': [0.0] * (len(names) + 1)}),
        ('20,000-name seed', {'seed_names': repeated_names(20_000),
                              'seed_positions': [0.0] * 20_000}),
    ]
    return [HostileInput('request', label, dict(base, **fields)) for label, fields in cases]


def bad_joint_states(joint_names: Sequence[str]) -> List[HostileInput]:
    """
    Return joint_states messages the node must refuse or partly ignore.

    :param joint_names: The chain's joints.
    :returns: The messages.
    """
    names = list(joint_names)
    cases = [
        ('names and positions differ', (names, [0.0] * (len(names) - 1))),
        ('all NaN', (names, [math.nan] * len(names))),
        ('infinite', (names, [math.inf] * len(names))),
        ('repeated name', (names + names[:1], [0.0] * (len(names) + 1))),
        ('empty name', (names[:-1] + [''], [0.0] * len(names))),
        ('20,000 names', (repeated_names(20_000), [0.0] * 20_000)),
        ('100,000 names', (repeated_names(100_000), [0.0] * 100_000)),
    ]
    return [HostileInput('joint_states', label, payload) for label, payload in cases]


def bad_targets(position: Position) -> List[HostileInput]:
    """
    Return streamed target poses the node must report as failures, never command.

    :param position: A reachable target position, m.
    :returns: The targets.
    """
    cases = [
        ('NaN position', ((math.nan, 0.0, 0.3), (0.0, 0.0, 0.0, 1.0), '')),
        ('infinite position', ((0.3, math.inf, 0.3), (0.0, 0.0, 0.0, 1.0), '')),
        ('zero quaternion', (position, (0.0, 0.0, 0.0, 0.0), '')),
        ('non-unit quaternion', (position, (0.0, 0.0, 0.6, 0.6), '')),
        ('unknown frame', (position, (0.0, 0.0, 0.0, 1.0), 'no_such_frame')),
        ('out of reach', ((50.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), '')),
    ]
    return [HostileInput('target', label, payload) for label, payload in cases]


def bad_descriptions(urdf_xml: str, *, oversized: bool = True) -> List[HostileInput]:
    """
    Return robot descriptions the node must refuse while it keeps the model it has.

    urdfdom, the parser of robot_state_publisher, refuses every one of them but the cycle
    (which it reads, although its tree cannot be walked) and the one above the size bound.

    :param urdf_xml: A valid URDF with revolute joints and velocity limits.
    :param oversized: Include a description just above the 20 MB bound.
    :returns: The descriptions.
    """
    limit_start = urdf_xml.index('<limit ')
    limit_end = urdf_xml.index('/>', limit_start) + 2
    first_joint = urdf_xml.index('<joint ')
    first_joint_end = urdf_xml.index('</joint>', first_joint) + len('</joint>')
    cases = [
        ('malformed XML', urdf_xml[:len(urdf_xml) // 2]),
        ('empty', ''),
        ('not a robot', '<model name="m"/>'),
        ('robot without a name', urdf_xml.replace('<robot name=', '<robot label=', 1)),
        ('revolute joint without <limit>', urdf_xml[:limit_start] + urdf_xml[limit_end:]),
        ('limit without velocity', _replace_attribute(urdf_xml, limit_start, 'velocity', '')
         .replace('velocity=""', '', 1)),
        ('infinite velocity limit', _replace_attribute(urdf_xml, limit_start, 'velocity',
                                                       'inf')),
        ('effort that is not a number', _replace_attribute(urdf_xml, limit_start, 'effort',
                                                           'strong')),
        ('infinite origin', urdf_xml[:first_joint] + urdf_xml[first_joint:].replace(
            'rpy="', 'rpy="0 inf 0" unused_rpy="', 1)),
        ('unknown joint type', urdf_xml[:first_joint] + urdf_xml[first_joint:].replace(
            'type="', 'type="hinge" unused_type="', 1)),
        ('joint declared twice', urdf_xml.replace(
            '</robot>', urdf_xml[first_joint:first_joint_end] + '</robot>')),
        ('two root links', urdf_xml.replace('</robot>', '<link name="stray"/></robot>')),
        # urdfdom reads this one; robot_state_publisher's tree never reaches its links, and a
        # URDF is a tree.
        ('cycle', urdf_xml.replace('</robot>', '<link name="c1"/><link name="c2"/>'
                                   '<joint name="c12" type="fixed"><parent link="c1"/>'
                                   '<child link="c2"/></joint><joint name="c21" type="fixed">'
                                   '<parent link="c2"/><child link="c1"/></joint></robot>')),
    ]
    if oversized:
        cases.append(('21 MB', urdf_xml.replace('</robot>', '<!--%s--></robot>'
                                                % ('x' * 21_000_000))))
    return [HostileInput('description', label, text) for label, text in cases]


def _replace_attribute(urdf_xml: str, element_start: int, attribute: str, value: str) -> str:
    start = urdf_xml.index('%s="' % attribute, element_start) + len(attribute) + 2
    end = urdf_xml.index('"', start)
    return urdf_xml[:start] + value + urdf_xml[end:]


def fuzz_inputs(count: int, *, seed: int, urdf_xml: str, joint_names: Sequence[str],
                position: Position, orientation: Quaternion,
                weights: Optional[Dict[str, float]] = None,
                oversized: bool = True) -> List[HostileInput]:
    """
    Return a shuffled mix of ``count`` bad inputs of every kind.

    The oversized description appears at most twice (each is 21 MB to send).

    :param count: Number of inputs.
    :param seed: Seed of the random choice.
    :param urdf_xml: The valid description the node runs with.
    :param joint_names: The chain's joints.
    :param position: A reachable target position, m.
    :param orientation: Its orientation (x, y, z, w).
    :param weights: Share of each kind (default: requests 0.4, joint_states 0.25, targets
        0.25, descriptions 0.1).
    :param oversized: Put the 21 MB description in, once per 5,000 inputs (at most twice).
    :returns: The inputs.
    """
    weights = weights or {'request': 0.4, 'joint_states': 0.25, 'target': 0.25,
                          'description': 0.1}
    pools: Dict[str, Callable[[], List[HostileInput]]] = {
        'request': lambda: bad_requests(position, orientation, joint_names),
        'joint_states': lambda: bad_joint_states(joint_names),
        'target': lambda: bad_targets(position),
        'description': lambda: bad_descriptions(urdf_xml, oversized=False),
    }
    choices = {kind: make() for kind, make in pools.items()}
    rng = random.Random(seed)
    kinds = rng.choices(list(weights), weights=list(weights.values()), k=count)
    inputs = [rng.choice(choices[kind]) for kind in kinds]
    if oversized:
        too_large = bad_descriptions(urdf_xml)[-1]
        for _ in range(min(2, count // 5000 + 1)):
            inputs[rng.randrange(count)] = too_large
    return inputs
