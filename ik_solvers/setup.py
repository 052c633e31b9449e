# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Packaging of ik_solvers: the Python package, its console scripts and its share files."""

from glob import glob

from setuptools import find_packages, setup

PACKAGE_NAME = 'ik_solvers'

setup(
    name=PACKAGE_NAME,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + PACKAGE_NAME]),
        ('share/' + PACKAGE_NAME, ['package.xml']),
        ('share/' + PACKAGE_NAME + '/launch', glob('launch/*.launch.py')),
        ('share/' + PACKAGE_NAME + '/config', glob('config/*.yaml') + glob('config/*.rviz')),
        ('share/' + PACKAGE_NAME + '/urdf', glob('urdf/*.urdf') + glob('urdf/*.xacro')),
        ('share/' + PACKAGE_NAME + '/urdf/trees', glob('urdf/trees/*.urdf')),
    ],
    install_requires=['setuptools', 'numpy', 'numba', 'transforms3d', 'lxml', 'toppra',
                      'pyyaml', 'coal', 'trimesh', 'pycollada', 'scipy', 'ompl',
                      'dask[distributed]'],
    extras_require={'plots': ['matplotlib']},
    # The compiled kernels cache their machine code next to the modules.
    zip_safe=False,
    maintainer='ik_solvers maintainers',
    maintainer_email='maintainers@ik-solvers.dev',
    description='Heuristic inverse kinematics for URDF chains, with a ROS 2 node and service.',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'ik_node = ik_solvers.ros.ik_node:main',
            'goal_marker = ik_solvers.visualization.goal_marker_node:main',
            'sim_executor = ik_solvers.visualization.sim_executor:main',
            'ik_solvers_demo = ik_solvers.demo.demo_cli:main',
            'ik_solvers_bench = ik_solvers_benchmarks.bench:main',
            'ik_solvers_reach = ik_solvers.reach.cli:main',
            'ik_solvers_reach_markers = ik_solvers.ros.reach_markers:main',
            'ik_solvers_batch_bench = ik_solvers_benchmarks.batch_throughput:main',
            'ik_solvers_reach_bench = ik_solvers_benchmarks.reach_checks:main',
        ],
    },
)
