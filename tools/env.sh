# shellcheck shell=bash
# Sourced by tools/demo.sh and tools/test.sh: creates or reuses the Python environment in .venv/,
# builds both packages with colcon into build/ and install/, and sources the result.
# Safe to run any number of times; it only reinstalls when a requirements file changed.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv"
PYTHON_BIN="${PYTHON:-python3}"

_say() { printf '\033[1m[ik_solvers]\033[0m %s\n' "$*" >&2; }

# A sourced ROS 2 distribution (Humble, Jazzy, Kilted) brings rclpy, the messages and rosidl;
# only then the venv sees the system packages instead of installing the PyPI wheels of Kilted.
if [ -n "${ROS_DISTRO:-}" ] && "$PYTHON_BIN" -c 'import rclpy' >/dev/null 2>&1; then
  ROS_MODE="system"
  REQUIREMENT_FILES=(tools/requirements.txt tools/requirements-test.txt)
else
  ROS_MODE="wheels"
  REQUIREMENT_FILES=(tools/requirements-ros.txt tools/requirements.txt tools/requirements-test.txt)
fi

_requirements_digest() {
  (cd "$REPO_ROOT" && cat "${REQUIREMENT_FILES[@]}"; echo "$ROS_MODE") | sha256sum | cut -d' ' -f1
}

_ensure_venv() {
  local stamp="$VENV/.ik_solvers-requirements" digest
  digest="$(_requirements_digest)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
    return 0
  fi
  if [ ! -x "$VENV/bin/python" ]; then
    _say "creating the Python environment in .venv/ (ROS 2 from: $ROS_MODE)"
    if [ "$ROS_MODE" = "system" ]; then
      "$PYTHON_BIN" -m venv --system-site-packages "$VENV"
    else
      "$PYTHON_BIN" -m venv "$VENV"
    fi
  fi
  # colcon searches the whole tree for packages; the venv holds many setup.py files of its own.
  touch "$VENV/COLCON_IGNORE"
  _say "installing Python packages (about a minute the first time; log in .venv/pip-install.log)"
  local args=()
  local f
  for f in "${REQUIREMENT_FILES[@]}"; do args+=(-r "$REPO_ROOT/$f"); done
  if ! "$VENV/bin/python" -m pip install --disable-pip-version-check "${args[@]}" \
      >"$VENV/pip-install.log" 2>&1; then
    tail -n 30 "$VENV/pip-install.log" >&2
    _say "pip install failed; see .venv/pip-install.log"
    return 1
  fi
  echo "$digest" >"$stamp"
}

_link_wheel_prefix() {
  # The Kilted wheels were built in a manylinux image: their exported CMake targets name
  # /opt/python/cp311-cp311/include/python3.11 and .../lib/python3.11/site-packages, and
  # rosidl interface generation fails while those paths are missing. Point them at this
  # interpreter's headers and at this venv's site-packages. Re-pointing on every run keeps
  # it right when several clones of the repo share one machine.
  local prefix=/opt/python/cp311-cp311
  local include_dir site_dir
  include_dir="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
  site_dir="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  if ! mkdir -p "$prefix/include" "$prefix/lib/python3.11" 2>/dev/null; then
    _say "cannot create $prefix (needed by the ROS 2 wheels' CMake files); run as root or create it once with sudo"
    return 1
  fi
  [ "$(readlink "$prefix/include/python3.11" 2>/dev/null)" = "$include_dir" ] \
    || ln -sfn "$include_dir" "$prefix/include/python3.11"
  [ "$(readlink "$prefix/lib/python3.11/site-packages" 2>/dev/null)" = "$site_dir" ] \
    || ln -sfn "$site_dir" "$prefix/lib/python3.11/site-packages"
}

_activate() {
  # shellcheck disable=SC1091
  source "$VENV/bin/activate"
  if [ "$ROS_MODE" = "wheels" ]; then
    export CMAKE_PREFIX_PATH="$VENV${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    export AMENT_PREFIX_PATH="$VENV${AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}"
  fi
}

_build() {
  _say "building ik_solvers_interfaces and ik_solvers with colcon (log in log/)"
  (cd "$REPO_ROOT" && colcon build \
      --event-handlers console_cohesion- status- summary+ \
      --cmake-args -DPython3_EXECUTABLE="$VENV/bin/python" -DBUILD_TESTING=ON \
      >"$REPO_ROOT/.venv/colcon-build.log" 2>&1) || {
    tail -n 40 "$REPO_ROOT/.venv/colcon-build.log" >&2
    _say "colcon build failed; see .venv/colcon-build.log and log/latest_build"
    return 1
  }
  # shellcheck disable=SC1091
  source "$REPO_ROOT/install/local_setup.bash"
  ik_solvers_path
}

# The package's console scripts (ik_solvers_reach, ik_solvers_bench, ik_node, ...) are installed
# in install/ik_solvers/lib/ik_solvers/, where `ros2 run` looks; the ROS 2 wheels from PyPI
# bring no `ros2` command, so that folder goes on PATH and each runs by its name. Idempotent.
ik_solvers_path() {
  local scripts="$REPO_ROOT/install/ik_solvers/lib/ik_solvers"
  case ":$PATH:" in
    *":$scripts:"*) ;;
    *) export PATH="$scripts${PATH:+:$PATH}" ;;
  esac
}

_warm_up() {
  # The solver kernels are compiled by numba on first use and cached beside the installed
  # modules: once after each build (76-81 s for the chains' kernels and 62 s for the trees' on an
  # idle 2-core machine), a fraction of a second afterwards. Doing it here keeps that out of
  # the node's start-up and out of every timed run. It runs from / so that the installed
  # package is imported, not the source tree.
  _say "loading the compiled solver kernels (compiled once after a build: about 2.5 min)"
  # The tree solvers' kernels too: a node's first request with several tips must not compile them.
  (cd / && python -c 'import ik_solvers; ik_solvers.warm_up()
from ik_solvers.solvers.tree_warm_up import warm_up_trees
warm_up_trees()') || {
    _say "compiling the solver kernels failed"
    return 1
  }
}

ik_solvers_setup() {
  _ensure_venv || return 1
  _activate
  if [ "$ROS_MODE" = "wheels" ]; then _link_wheel_prefix || return 1; fi
  _build || return 1
  _warm_up || return 1
}

# A DDS domain of its own for every run, on loopback only, so that two runs on one machine (or
# a robot on the same network) never see each other's nodes.
ik_solvers_isolate_ros() {
  export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$(( (RANDOM % 100) + 1 ))}"
  if [ "${ROS_DISTRO:-}" = "humble" ]; then
    # Humble predates ROS_AUTOMATIC_DISCOVERY_RANGE and ignores it.
    export ROS_LOCALHOST_ONLY="${ROS_LOCALHOST_ONLY:-1}"
  else
    export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
  fi
}
