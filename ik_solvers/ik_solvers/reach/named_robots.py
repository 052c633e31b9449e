# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The robots the benchmark runs on: bundled URDFs, vendor URDFs and generated snakes.

A robot is a URDF string with the base and tip links of its chain. Bundled robots come from
the package's ``urdf/`` folder, vendor robots from the example-robot-data package when it is
installed, and snakes of any length are generated in memory.
"""

from dataclasses import dataclass
import importlib.metadata
import math
import os
from pathlib import Path
import re
import sys
from typing import Dict, List, Optional, Tuple

from ..exceptions import RobotModelError
from ..kinematics import RobotModel

__all__ = [
    'BUNDLED_CHAINS',
    'BenchRobot',
    'VENDOR_ROBOTS',
    'bundled_urdf_directory',
    'bundled_robot_names',
    'chain_endpoints',
    'load_robot',
    'snake_length',
    'snake_robot',
    'vendor_description',
    'vendor_robot_names',
]

# Bundled robots whose main chain the tree alone does not tell (a gripper branch is deeper than
# the tool frame): name -> (base link, tip link). Other bundled files use chain_endpoints.
BUNDLED_CHAINS: Dict[str, Tuple[str, str]] = {
    'panda_like': ('panda_link0', 'panda_hand_tcp'),
    'so101_like': ('base_link', 'gripper_frame_link'),
    'ur10_like': ('base_link', 'tool0'),
    'ur5_like': ('base_link', 'tool0'),
}

# Vendor robots: name -> (path under example-robot-data's robots/ folder, base link, tip link).
VENDOR_ROBOTS: Dict[str, Tuple[str, str, str]] = {
    'vendor_ur5': ('ur_description/urdf/ur5_robot.urdf', 'base_link', 'tool0'),
    'vendor_panda': ('panda_description/urdf/panda.urdf', 'panda_link0', 'panda_hand_tcp'),
}

_EXAMPLE_ROBOT_DATA = 'example-robot-data'
_XML_DECLARATION = re.compile(r'^\s*<\?xml[^>]*\?>')
_ROBOTS_SUBDIR = ('share', 'example-robot-data', 'robots')


@dataclass(frozen=True)
class BenchRobot:
    """
    One robot of the benchmark.

    :ivar name: Name shown in the tables, e.g. ``ur5_like`` or ``vendor_panda``.
    :ivar urdf_xml: The robot description, as XML text.
    :ivar base_link: First link of the chain; targets are expressed in its frame.
    :ivar tip_link: Last link of the chain, whose pose the solvers control.
    :ivar source: Where the description came from (a path, or ``generated``).
    """

    name: str
    urdf_xml: str
    base_link: str
    tip_link: str
    source: str


def _read_urdf(path: Path) -> str:
    # Once decoded, an encoding declaration says nothing, and some XML parsers refuse it in a
    # str.
    return _XML_DECLARATION.sub('', path.read_text(encoding='utf-8'), count=1)


def chain_endpoints(urdf_xml: str) -> Tuple[str, str]:
    """
    Pick the base and tip links of the main chain of a robot description.

    The base is the root link; the tip is the leaf link with the most moving joints above it,
    and among those the one with the most fixed joints too, so that a tool frame hanging off
    the last link wins over the last link itself.

    :param urdf_xml: The robot description.

    :returns: ``(base_link, tip_link)``.

    :raises RobotModelError: The description is refused by :class:`RobotModel` (XML that
        cannot be parsed, no single root, a cycle), or no leaf has a moving joint above it.
    """
    model = RobotModel.from_urdf(urdf_xml)
    parents = {model.joint(name).parent for name in model.joint_names}
    best: Optional[Tuple[int, int, str]] = None
    for leaf in sorted(link for link in model.link_names if link not in parents):
        path = model.path(model.root_link, leaf)
        moving_count = sum(joint.is_moving for joint in path)
        # Sorting by name first makes the choice deterministic when two leaves tie.
        key = (moving_count, len(path) - moving_count, leaf)
        if best is None or key[:2] > best[:2]:
            best = key
    if best is None or best[0] == 0:
        raise RobotModelError('the URDF has no chain with a moving joint')
    return model.root_link, best[2]


def bundled_urdf_directory() -> Optional[Path]:
    """
    Find the folder of the bundled URDFs.

    The installed share folder is preferred; the source tree serves when the package runs
    from a checkout that was never built.

    :returns: The folder, or None when neither exists.
    """
    candidates: List[Path] = []
    try:
        from ament_index_python.packages import get_package_share_directory
        candidates.append(Path(get_package_share_directory('ik_solvers')) / 'urdf')
    except Exception:  # noqa: B902 - missing index or package: fall back to the source tree.
        pass
    candidates.append(Path(__file__).resolve().parents[2] / 'urdf')
    for candidate in candidates:
        if candidate.is_dir() and any(candidate.glob('*.urdf')):
            return candidate
    return None


def bundled_robot_names() -> List[str]:
    """
    List the bundled robots, the file names of ``urdf/*.urdf`` without extension.

    :returns: Sorted names; empty when no bundled URDF is found.
    """
    directory = bundled_urdf_directory()
    if directory is None:
        return []
    return sorted(path.stem for path in directory.glob('*.urdf'))


def _example_robot_data_root() -> Optional[Path]:
    """Locate example-robot-data's ``robots/`` folder, or None when it is not installed."""
    try:
        distribution = importlib.metadata.distribution(_EXAMPLE_ROBOT_DATA)
    except importlib.metadata.PackageNotFoundError:
        distribution = None
    if distribution is not None:
        marker = '/'.join(_ROBOTS_SUBDIR) + '/'
        for file in distribution.files or ():
            text = str(file).replace(os.sep, '/')
            if marker in text:
                root = Path(str(distribution.locate_file(text[:text.index(marker) + len(marker)])))
                if root.is_dir():
                    return root
    # Installed some other way (system package, conda): look under the usual prefixes.
    for prefix in {sys.prefix, sys.base_prefix, '/usr', '/usr/local', '/opt/openrobots'}:
        for pattern in ('share', '*/share', 'lib/python*/site-packages/cmeel.prefix/share'):
            for share in Path(prefix).glob(pattern):
                root = share.joinpath(*_ROBOTS_SUBDIR[1:])
                if root.is_dir():
                    return root
    return None


def vendor_description(relative: str) -> Optional[str]:
    """
    Read a URDF of example-robot-data.

    :param relative: Its path under the package's ``robots/`` folder.
    :returns: The URDF text, or None when example-robot-data or the file is not installed.
    """
    root = _example_robot_data_root()
    if root is None or not (root / relative).is_file():
        return None
    return _read_urdf(root / relative)


def vendor_robot_names() -> List[str]:
    """
    List the vendor robots whose URDF is installed.

    :returns: Names from :data:`VENDOR_ROBOTS`; empty when example-robot-data is not installed.
    """
    root = _example_robot_data_root()
    if root is None:
        return []
    return [name for name, (relative, _, _) in VENDOR_ROBOTS.items()
            if (root / relative).is_file()]


def snake_length(num_joints: int) -> float:
    """
    Reach of a generated snake, in m, following the bundled snakes.

    The bundled snakes reach 2 m with 20 joints and 3 m with 100; lengths in between are
    interpolated linearly, shorter snakes keep 0.1 m links and longer ones reach 3 m.

    :param num_joints: Number of joints.

    :returns: The reach, in m.
    """
    if num_joints <= 20:
        return 0.1 * num_joints
    return 2.0 + min(num_joints - 20, 80) / 80.0


def snake_robot(num_joints: int, *, total_length: Optional[float] = None) -> BenchRobot:
    """
    Generate a snake of the bundled snakes' pattern: equal links, hinges alternating z and y.

    Like the bundled ``snake_20`` and ``snake_100``, it runs from ``base_link`` to ``tip``,
    lies straight along x at the zero configuration, and every joint turns +-90 degrees.

    :param num_joints: Number of revolute joints, at least 1.
    :param total_length: Reach of the stretched chain, in m; :func:`snake_length` by default.

    :returns: A robot named ``snake_<num_joints>``.

    :raises ValueError: ``num_joints`` < 1 or ``total_length`` not positive.
    """
    if num_joints < 1:
        raise ValueError('a snake needs at least one joint, got %d' % num_joints)
    if total_length is None:
        total_length = snake_length(num_joints)
    if not total_length > 0.0:
        raise ValueError('total_length must be positive, got %r' % total_length)
    segment = total_length / num_joints
    parts = ['<?xml version="1.0"?>', '<robot name="snake_%d">' % num_joints,
             '  <link name="base_link"/>']
    parent = 'base_link'
    for index in range(num_joints):
        child = 'link_%d' % (index + 1)
        axis = '0 0 1' if index % 2 == 0 else '0 1 0'
        offset = 0.0 if index == 0 else segment
        parts += [
            '  <link name="%s"/>' % child,
            '  <joint name="joint_%d" type="revolute">' % (index + 1),
            '    <parent link="%s"/>' % parent,
            '    <child link="%s"/>' % child,
            '    <origin xyz="%.17g 0 0" rpy="0 0 0"/>' % offset,
            '    <axis xyz="%s"/>' % axis,
            '    <limit lower="%.17g" upper="%.17g" effort="10" velocity="2"/>'
            % (-0.5 * math.pi, 0.5 * math.pi),
            '  </joint>',
        ]
        parent = child
    parts += [
        '  <link name="tip"/>',
        '  <joint name="tip_joint" type="fixed">',
        '    <parent link="%s"/>' % parent,
        '    <child link="tip"/>',
        '    <origin xyz="%.17g 0 0" rpy="0 0 0"/>' % segment,
        '  </joint>',
        '</robot>',
    ]
    return BenchRobot('snake_%d' % num_joints, '\n'.join(parts) + '\n', 'base_link', 'tip',
                      'generated')


def load_robot(name: str) -> BenchRobot:
    """
    Load a robot by name, or from a URDF file path.

    :param name: A bundled robot (``ur5_like``), a vendor robot (``vendor_ur5``), a generated
        snake (``snake_<N>`` when no bundled file has that name), or a path to a
        ``.urdf`` file; any of them may end with ``:BASE:TIP`` to choose the chain,
        which is otherwise the known one or the one :func:`chain_endpoints` finds.

    :returns: The robot.

    :raises RobotModelError: Unknown name, missing vendor package, or unreadable description.
    """
    links: Optional[Tuple[str, str]] = None
    if name.count(':') >= 2 and not Path(name).is_file():
        name, base, tip = name.rsplit(':', 2)
        links = (base, tip)
    robot = _load(name)
    if links is None:
        return robot
    return BenchRobot(robot.name, robot.urdf_xml, links[0], links[1], robot.source)


def _load(name: str) -> BenchRobot:
    if name.endswith('.urdf') and Path(name).is_file():
        xml = _read_urdf(Path(name))
        base, tip = chain_endpoints(xml)
        return BenchRobot(Path(name).stem, xml, base, tip, str(Path(name).resolve()))
    directory = bundled_urdf_directory()
    if directory is not None and (directory / (name + '.urdf')).is_file():
        path = directory / (name + '.urdf')
        xml = _read_urdf(path)
        base, tip = BUNDLED_CHAINS[name] if name in BUNDLED_CHAINS else chain_endpoints(xml)
        return BenchRobot(name, xml, base, tip, str(path))
    if name in VENDOR_ROBOTS:
        root = _example_robot_data_root()
        relative, base, tip = VENDOR_ROBOTS[name]
        if root is None or not (root / relative).is_file():
            raise RobotModelError('%s needs the example-robot-data package (pip install '
                                  'example-robot-data), which is not installed' % name)
        return BenchRobot(name, _read_urdf(root / relative), base, tip, str(root / relative))
    if name.startswith('snake_') and name[len('snake_'):].isdigit():
        return snake_robot(int(name[len('snake_'):]))
    known = bundled_robot_names() + list(VENDOR_ROBOTS)
    raise RobotModelError('unknown robot %r; known: %s, snake_<N>, or a .urdf path'
                          % (name, ', '.join(known)))
