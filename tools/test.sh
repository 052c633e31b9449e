#!/usr/bin/env bash
# The whole test suite from a fresh clone: environment, colcon build, colcon test, colcon test-result.
# Exits non-zero when any test fails.
set -eo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck disable=SC1091
source tools/env.sh
ik_solvers_setup

ik_solvers_isolate_ros
_say "running colcon test (ROS_DOMAIN_ID=$ROS_DOMAIN_ID)"

status=0
colcon test --event-handlers console_direct+ --return-code-on-test-failure \
  --pytest-args -p no:cacheprovider "$@" || status=$?
colcon test-result --verbose || status=$?
exit "$status"
