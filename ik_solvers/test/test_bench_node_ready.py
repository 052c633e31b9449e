# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The node start-up benchmark: its table, its options, its arms, and one real run."""

import re

from ik_solvers_benchmarks.node_ready import (build_parser, format_table, main, prepare_arm,
                                              RunTimes, time_run)
from ik_solvers.reach.named_robots import vendor_robot_names
from ik_solvers.collision import resolve_mesh_path
from ik_solvers.kinematics import RobotModel
import numpy as np
import pytest


def test_the_table_gives_min_median_max_and_counts_the_runs_never_ready():
    runs = [RunTimes(4.0, 1.0, None, True, []), RunTimes(3.0, 1.5, None, True, []),
            RunTimes(6.0, 1.2, None, False, []), RunTimes(None, 1.1, None, False, [])]
    table = format_table({'panda_like': runs})
    assert '| panda_like | 4 | 3.00 / 4.00 / 6.00 | 1.00 / 1.15 / 1.50 | - | 2 | 1 |' in table


def test_the_options_default_to_five_runs_of_the_four_arms_and_refuse_fewer_than_one():
    arguments = build_parser().parse_args([])
    assert arguments.runs == 5
    assert arguments.arms.split(',') == ['panda_like', 'ur5_like', 'vendor_panda', 'vendor_ur5']
    with pytest.raises(SystemExit):
        main(['--runs', '0'])


def test_a_bundled_arm_gets_a_target_its_chain_reaches_near_the_published_joint_states():
    arm = prepare_arm('ur5_like')
    assert arm.srdf_xml is None and arm.environment == {}
    chain = RobotModel.from_urdf(arm.robot.urdf_xml).chain(arm.robot.base_link,
                                                           arm.robot.tip_link)
    assert list(arm.joint_names) == list(chain.joint_names)
    assert np.allclose(arm.home, chain.mid_configuration())
    rotation = arm.target[:3, :3]
    assert np.allclose(rotation @ rotation.T, np.eye(3), atol=1e-9)
    # Within the chain's reach: no further from the base than the stretched arm.
    assert np.linalg.norm(arm.target[:3, 3]) < 2.0


@pytest.mark.skipif('vendor_panda' not in vendor_robot_names(),
                    reason='example-robot-data is not installed')
def test_a_vendor_arm_comes_with_its_srdf_and_an_environment_where_its_meshes_resolve(
        monkeypatch):
    arm = prepare_arm('vendor_panda')
    assert '<disable_collisions' in arm.srdf_xml
    monkeypatch.setenv('AMENT_PREFIX_PATH', arm.environment['AMENT_PREFIX_PATH'])
    filenames = re.findall(r'<mesh filename="(package://[^"]+)"', arm.robot.urdf_xml)
    assert filenames
    for filename in filenames:
        assert resolve_mesh_path(filename).is_file(), filename


def test_one_run_ends_with_an_answer_checked_for_collisions(tmp_path):
    run = time_run(prepare_arm('panda_like'), tmp_path / 'ik_node.log')
    assert run.ready is not None, (tmp_path / 'ik_node.log').read_text()
    assert run.solved and list(run.unchecked_links) == []
    assert run.service is not None and run.service <= run.ready
