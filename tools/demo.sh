#!/usr/bin/env bash
# The README's main command: the headless demo from a fresh clone. Builds the workspace, then
# drags a goal along a scripted path for the bundled 7-DOF arm once per solver, through the real
# ik_node and the simulated executor, and prints a table and where the plot went.
# Extra arguments go to ik_solvers_demo (try: bash tools/demo.sh --help).
set -eo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck disable=SC1091
source tools/env.sh
ik_solvers_setup

ik_solvers_isolate_ros
_say "running the headless demo (ROS_DOMAIN_ID=$ROS_DOMAIN_ID)"
# Console scripts of a ROS 2 package live in <prefix>/lib/<package>/ (where `ros2 run` looks),
# not on PATH; ask the ament index where the package was installed.
prefix="$(python -c 'from ament_index_python.packages import get_package_prefix as p; print(p("ik_solvers"))')"
exec python "$prefix/lib/ik_solvers/ik_solvers_demo" --output "${IK_SOLVERS_DEMO_OUTPUT:-$PWD/output}" "$@"
