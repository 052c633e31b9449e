# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Record which modules of the installed package one request passes through, in order.

Runs an ik_node in this process with a profiler on every thread it starts, sends one streamed
target (until its command, status and markers arrive) and one SolveIK request with execute
(until its response arrives), and prints each walk: the modules outside the solver core
(``kinematics/``, ``solvers/``) in the order they were entered, consecutive repeats merged,
with the number of distinct modules and of returns to a module already visited. Each step names
the thread it ran on; the steps of all threads are listed in the order they happened.

    python3 tools/module_walk.py            # after sourcing install/local_setup.bash
"""

from pathlib import Path
import sys
import threading
import time

from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.srv import SolveIK
import ik_solvers
import numpy as np
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy
import transforms3d
from trajectory_msgs.msg import JointTrajectory
from visualization_msgs.msg import MarkerArray

PACKAGE = Path(ik_solvers.__file__).parent
CORE = ('kinematics', 'solvers')
# Every thread of this process is recorded except the client's executor, which runs the test
# client's callbacks only. Listing the node's threads by name instead lost most of the SolveIK
# walk when the service's workers were renamed; idle threads (the description loaders, the stop
# signal watcher) block outside the package and record nothing.
CLIENT_THREAD = 'client_executor'
HANG_BOUND = 30.0  # s; a request takes milliseconds

events = []
recording = threading.Event()


def _profile(frame, event, argument):
    if event != 'call' or not recording.is_set():
        return
    path = frame.f_code.co_filename
    if not path.startswith(str(PACKAGE)):
        return
    relative = Path(path).relative_to(PACKAGE)
    if relative.parts[0] in CORE:
        return
    thread = threading.current_thread().name
    if thread != CLIENT_THREAD:
        events.append((str(relative), frame.f_code.co_name, thread))


def _walk(recorded):
    walk = []
    for module, function, thread in recorded:
        if not walk or walk[-1][0] != module:
            walk.append((module, function, thread))
    seen, returns = set(), 0
    for module, _, _ in walk:
        if module in seen:
            returns += 1
        seen.add(module)
    return walk, len(seen), returns


def _report(title, recorded):
    walk, modules, returns = _walk(recorded)
    print('%s: %d modules, %d returns to a module already visited, %d steps'
          % (title, modules, returns, len(walk)))
    for index, (module, function, thread) in enumerate(walk, 1):
        print('  %2d. %s (%s) [%s]' % (index, module, function, thread))


def main():
    urdf = Path(__file__).resolve().parents[1] / 'ik_solvers' / 'urdf' / 'ur5_like.urdf'
    if not urdf.is_file():
        urdf = Path(sys.prefix).parent / 'share' / 'ik_solvers' / 'urdf' / 'ur5_like.urdf'
    threading.setprofile(_profile)
    rclpy.init()
    from ik_solvers.ros.ik_node import IKNode
    node = IKNode(parameter_overrides=[
        Parameter('robot_description', value=urdf.read_text()),
        Parameter('tip_link', value='tool0'), Parameter('max_joint_jump', value=0.0),
        Parameter('joint_state_timeout', value=0.0)])
    client = Node('module_walk_client')
    received = {'command': threading.Event(), 'markers': threading.Event()}
    client.create_subscription(JointTrajectory, '/joint_trajectory_controller/joint_trajectory',
                               lambda message: received['command'].set(), 10)
    client.create_subscription(MarkerArray, '/ik_node/markers',
                               lambda message: received['markers'].set(), 10)
    publisher = client.create_publisher(PoseStamped, '/target_pose',
                                        QoSProfile(depth=1,
                                                   reliability=ReliabilityPolicy.RELIABLE))
    service = client.create_client(SolveIK, '/ik_node/solve_ik')
    executors = []
    for index, each in enumerate((node, client)):
        executor = SingleThreadedExecutor()
        executor.add_node(each)
        executors.append(executor)
        threading.Thread(target=executor.spin, daemon=True,
                         name='walk_executor' if index == 0 else CLIENT_THREAD).start()
    deadline = time.monotonic() + HANG_BOUND
    while (node.descriptions_received < 1 or publisher.get_subscription_count() < 1
           or not service.service_is_ready()) and time.monotonic() < deadline:
        time.sleep(0.05)
    chain = ik_solvers.kinematics.RobotModel.from_urdf(urdf.read_text()).chain('base_link',
                                                                               'tool0')
    goal = chain.fk(np.array([0.3, -1.0, 1.2, -0.5, 0.4, 0.2]))
    w, x, y, z = transforms3d.quaternions.mat2quat(goal[:3, :3])
    target = PoseStamped()
    target.pose.position.x, target.pose.position.y, target.pose.position.z = (
        float(value) for value in goal[:3, 3])
    target.pose.orientation.x, target.pose.orientation.y = float(x), float(y)
    target.pose.orientation.z, target.pose.orientation.w = float(z), float(w)

    recording.set()
    publisher.publish(target)
    ok = all(event.wait(HANG_BOUND) for event in received.values())
    recording.clear()
    _report('streamed target (command %s)' % ('received' if ok else 'MISSING'), events)

    events.clear()
    request = SolveIK.Request()
    request.target = target
    request.execute = True
    recording.set()
    future = service.call_async(request)
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    done.wait(HANG_BOUND)
    recording.clear()
    code = future.result().error_code if future.done() else 'none'
    _report('SolveIK with execute (error code %s)' % code, events)
    for executor in executors:
        executor.shutdown(timeout_sec=1.0)
    node.destroy_node()
    client.destroy_node()
    rclpy.shutdown()


if __name__ == '__main__':
    main()
