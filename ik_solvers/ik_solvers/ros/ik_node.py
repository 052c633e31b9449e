# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node: target poses in, verified JointTrajectory commands out, plus a SolveIK service.

A plain rclpy node, like robot_state_publisher. Callbacks only convert messages and hand the
work over to :meth:`~ik_solvers.engine.pipeline.IKEngine.handle` on other threads: streamed
targets through a one-slot mailbox to a worker (a burst costs one solve, for the newest),
service calls to :mod:`.solve_service`, descriptions to :mod:`.description_input`. Run
``ros2 run ik_solvers ik_node``.
"""

import dataclasses
import threading
import time
from typing import Any, List, Optional

from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.msg import IKStatus
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from rclpy.callback_groups import CallbackGroup
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, qos_profile_sensor_data, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from visualization_msgs.msg import MarkerArray

from .cartesian_path_service import CartesianPathService, read_joint_limits_file
from .collision_inputs import CollisionInputs
from .trajectory_publisher import TopicCommandSink
from .conversions import (fill_response, outcome_poses, service_request, status_message,
                          target_request)
from .description_input import DescriptionInput
from .markers import outcome_colour, solve_markers
from .names import (
    JOINT_STATES_TOPIC,
    MARKERS_TOPIC,
    NODE_NAME,
    ROBOT_DESCRIPTION_TOPIC,
    STATUS_TOPIC,
    TARGET_POSE_TOPIC,
)
from .node_main import run_node
from .node_parameters import NodeParameters
from .outcome_log import LOG_THROTTLE_PERIOD, OutcomeLog
from .parameter_services import guard_parameter_services
from .servo_input import ServoInput
from .solve_service import SolveIKService
from .tf_lookup import start_tf_lookup
from .tree_conversions import asks_for_tree, fill_tree_response, tree_status_message
from .tree_input import solve_tree_call, TreeTargets
from ..engine.command_gate import publication
from ..engine.error_codes import ErrorCode
from ..engine.held_goal import EXACT, EXACT_TIMEOUT, final_outcome, HeldGoal
from ..engine.latest_target import LatestSlot
from ..engine.outcome import IKOutcome
from ..engine.path_request import PathOutcome
from ..engine.pipeline import IKEngine
from ..engine.tree_outcome import TreeOutcome
from ..exceptions import IKError, InvalidLimitsError, InvalidParameterError, InvalidSeedError
from ..paths import warm_up_timing
from ..solvers import SOLVERS, warm_up
from ..solvers.tree_warm_up import warm_up_trees

__all__ = ['IKNode', 'LOG_THROTTLE_PERIOD', 'main']


class IKNode(Node):
    """Turns target poses into JointTrajectory commands and answers SolveIK calls."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        """
        Declare the parameters, open the topics and the service, start the worker.

        :param node_name: Name of the node.
        :param kwargs: Passed to :class:`rclpy.node.Node` (``namespace``, ``context``,
            ``parameter_overrides``, ...).
        :raises InvalidParameterError: A parameter override is refused (its reason is given);
            the node is destroyed.
        """
        super().__init__(node_name, **kwargs)
        guard_parameter_services(self)  # rclpy's own handlers end the node on a bad type
        self._log = OutcomeLog(self.get_logger())
        self._engine = IKEngine(external_lookup=start_tf_lookup(self))
        try:
            self._node_parameters = NodeParameters(self, self._engine.robot.check_links,
                                                   self._engine.robot.adopt_links)
        except InvalidParameterError:
            super().destroy_node()  # nothing else was started yet
            raise
        self._descriptions = DescriptionInput(self._engine.robot, self._node_parameters.links,
                                              self.get_logger(), self._log)
        self._targets: LatestSlot[PoseStamped] = LatestSlot()
        # A target not followed by a newer one is driven on until reached (engine/held_goal.py).
        self._goal: HeldGoal[PoseStamped] = HeldGoal()
        # Held by the worker while it uses the node after a solve; destroy_node takes it.
        self._worker_output = threading.Lock()
        self._closing = threading.Event()
        fallback = self._node_parameters.value('robot_description')
        if fallback:
            self._descriptions.submit(fallback, 'the robot_description parameter')
        self._collision_inputs = CollisionInputs(self, self._engine.robot, self._node_parameters)
        self._commands = TopicCommandSink(self)
        # Velocity commands from a teleoperation device (docs/servo.md).
        self._servo = ServoInput(self, self._engine.robot, self._node_parameters,
                                 self._commands.destination)
        self._status_publisher = self.create_publisher(
            IKStatus, STATUS_TOPIC, QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
        self._marker_publisher = self.create_publisher(MarkerArray, MARKERS_TOPIC, 10)
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.create_subscription(String, ROBOT_DESCRIPTION_TOPIC, self._on_description, latched)
        self.create_subscription(JointState, JOINT_STATES_TOPIC, self._on_joint_states,
                                 qos_profile_sensor_data)
        # Depth 1: only the newest target matters, older ones would be dropped anyway. Best
        # effort matches reliable and best-effort publishers alike (teleoperation and web
        # bridges publish with sensor-data QoS); a reliable subscription drops the latter.
        self.create_subscription(PoseStamped, TARGET_POSE_TOPIC, self._targets.put,
                                 QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))
        # The node spins on one thread (rclpy's multi-threaded executor cost more CPU than the
        # solves and made the node skip most dragged goals); solves run on worker threads.
        self._solve_service = SolveIKService(
            self, self._on_solve_ik, lambda: self._node_parameters.settings.max_pending_requests)
        self._path_service = CartesianPathService(
            self, self._engine, lambda: self._node_parameters.settings, self._on_path_outcome,
            self._joint_limits(), lambda: self._node_parameters.settings.max_pending_requests,
            collision_model=lambda: self._engine.robot.collision_model(
                self._node_parameters.settings),
            publish=self._commands.send_path)
        # Several end effectors: one target topic per tip of tip_links (docs/node.md).
        self._tree_targets = TreeTargets(
            self, self._engine, tuple(self._node_parameters.settings.tip_links),
            lambda: self._node_parameters.settings, self._output_tree)
        solver = self._node_parameters.settings.solver
        # Compiled (or loaded from the disk cache) here, so that no drag ever waits for it.
        order = sorted(SOLVERS, key=lambda name: name != solver)  # stable: the solver first
        self.get_logger().info('loading the compiled solvers (%s); the first start after an '
                               'install compiles them (about 75 s on a 2-core machine)'
                               % ', '.join(order))
        self.get_logger().info('solvers ready in %.2f s' % warm_up(order))
        if len(self._node_parameters.settings.tip_links) > 1:
            # Loading the tree kernels takes about half a second: not inside a first goal.
            self.get_logger().info('tree solvers ready in %.2f s' % warm_up_trees())
        # toppra's import takes seconds on a cold start: paid here, not by the first path.
        self.get_logger().info('path timing ready in %.2f s' % warm_up_timing())
        self._worker = threading.Thread(target=self._work, name='ik_node_worker', daemon=True)
        self._worker.start()
        self.get_logger().info('ready: solver %s, targets on %s, commands on %s, services %s '
                               'and %s' % (solver, self.resolve_topic_name(TARGET_POSE_TOPIC),
                                           self._commands.destination,
                                           self._solve_service.service_name,
                                           self._path_service.service_name))

    @property
    def aside_callback_groups(self) -> List[CallbackGroup]:
        """
        Return the callback groups that :func:`.node_main.run_node` runs on threads aside.

        The CartesianPath service's: rclpy converts a request of 100,000 waypoints for
        seconds while taking it, and the spinning thread takes SolveIK calls, targets and
        joint states meanwhile. Its callbacks only hand requests to its pool and wake-ups.
        """
        return [self._path_service.callback_group]

    @property
    def descriptions_received(self) -> int:
        """Count the robot descriptions handled so far: loaded, refused, or skipped for newer."""
        return self._descriptions.handled

    def destroy_node(self) -> None:
        """
        Close the mailboxes, then destroy the node without waiting for a solve in flight.

        A solve may last its whole timeout (up to 10 s); once the mailboxes are closed, workers
        only finish their solve and end without touching the node.
        """
        self._closing.set()
        self._descriptions.close(timeout=1.0)
        self._collision_inputs.close(timeout=1.0)
        self._solve_service.close(timeout=0.0)
        self._path_service.close(timeout=0.0)
        self._targets.close()
        self._tree_targets.close()
        self._servo.close()
        with self._worker_output:
            pass  # only waits for the publications of a finished solve; none start after this
        super().destroy_node()

    # Inputs --------------------------------------------------------------------------------

    def _on_description(self, message: String) -> None:
        self._descriptions.submit(message.data, 'the %s topic' % ROBOT_DESCRIPTION_TOPIC)

    def _on_joint_states(self, message: JointState) -> None:
        try:
            dropped = self._engine.robot.joint_states.update(message.name, message.position,
                                                             message.velocity)
        except InvalidSeedError as error:
            self._log.warn('joint_states', 'ignored a joint_states message: %s' % error)
            return
        if dropped:
            self._log.warn('joint_states_not_finite', 'joint_states: ignored the NaN or '
                           'infinite positions of %s; the other joints were updated'
                           % ', '.join(dropped))

    def _work(self) -> None:
        while True:
            target = self._targets.take(timeout=self._goal.wait(time.monotonic(), 1.0))
            if target is None:
                if self._closing.is_set():
                    return
            try:
                if target is not None:
                    self._solve_streamed(target)
                else:
                    self._drive_held_goal()
            except Exception as error:  # noqa: B902 - the worker must outlive any bug
                if not self._closing.is_set():
                    self.get_logger().error('streamed solve failed: %r' % error)

    def _drive_held_goal(self) -> None:
        if self._servo.active:
            self._goal.cancel()  # a twist or joint command took the arm over
            return
        due = self._goal.due(time.monotonic())
        if due is None:
            return
        target, stage, attempt = due
        settings = self._node_parameters.settings
        request = target_request(target)
        if stage == EXACT:
            # From where the arm is (later attempts from another seed), routed around
            # obstacles; a goal published once can wait for a longer search.
            request = dataclasses.replace(request, streamed=False, execute=True,
                                          timeout=max(settings.timeout, EXACT_TIMEOUT),
                                          **self._other_seed(settings, attempt))
        outcome = self._engine.handle(request, settings)
        if self._goal.done(target, stage, outcome, time.monotonic()):
            outcome = final_outcome(outcome, stage)
        elif not outcome.commanded:
            # The next stage follows; this answer is no news on the status topic, but the log
            # says why the stage did not reach the goal.
            self.get_logger().info('held goal, %s stage (attempt %d) did not command: %s (%s)'
                                   % (stage, attempt + 1, outcome.message.splitlines()[0],
                                      outcome.error_code.name))
            return
        self._output(outcome, settings, 'target_pose')

    def _other_seed(self, settings, attempt: int):
        if attempt == 0:
            return {}
        try:
            chain = self._engine.robot.chain(settings.base_link, settings.tip_link)
        except IKError:
            return {}
        seed = chain.random_configuration(np.random.default_rng(attempt))
        return {'seed_names': tuple(chain.joint_names), 'seed_positions': tuple(seed.tolist())}

    def _solve_streamed(self, target: PoseStamped) -> None:
        self._servo.stop()  # a pose takes the arm over from servoing
        settings = self._node_parameters.settings
        outcome = self._engine.handle(target_request(target), settings)
        self._goal.streamed(target, outcome, time.monotonic())
        self._output(outcome, settings, 'target_pose')

    def _send(self, outcome: IKOutcome, settings) -> IKOutcome:
        # Checked against the scene as it is now, not as it was when the request arrived, and
        # timed from the controller's motion now; sent before the scene may change again.
        with publication(self._engine.robot, self._engine.timing, outcome, settings) as sent:
            if sent.command is not None:
                self._commands.send(sent.command)
            elif sent.path_command is not None:
                self._commands.send_path(sent.path_command)
        return sent

    def _output(self, outcome: IKOutcome, settings, source: str) -> None:
        with self._worker_output:
            if self._closing.is_set():
                return  # the node is being destroyed while this solve ran
            outcome = self._send(outcome, settings)
            if (outcome.error_code == ErrorCode.NO_ROBOT_MODEL
                    and not self._engine.robot.has_model):
                self.get_logger().warning(
                    'waiting for robot_description on %s; targets are ignored until one '
                    'arrives' % self.resolve_topic_name(ROBOT_DESCRIPTION_TOPIC), once=True)
            else:
                self._log.outcome(outcome, source)
            self._publish_feedback(outcome, settings.base_link, status=True)

    def _on_solve_ik(self, request: SolveIK.Request,
                     response: SolveIK.Response) -> SolveIK.Response:
        # Runs on a worker of the SolveIK service; an exception becomes INTERNAL_ERROR there.
        settings = self._node_parameters.settings
        if asks_for_tree(request, settings):
            return self._on_solve_tree(request, response, settings)
        outcome = self._engine.handle(service_request(request), settings)
        if outcome.commanded:
            self._goal.cancel()  # the arm was given another motion
            self._servo.stop()
        outcome = self._send(outcome, settings)
        self._log.outcome(outcome, 'solve_ik')
        self._publish_feedback(outcome, settings.base_link, status=False)
        return fill_response(response, outcome, self.get_clock().now().to_msg())

    def _on_solve_tree(self, request: SolveIK.Request, response: SolveIK.Response,
                       settings) -> SolveIK.Response:
        outcome = solve_tree_call(self._engine, request, settings)
        self._send_tree(outcome)
        self._log.outcome(outcome, 'solve_ik')
        return fill_tree_response(response, outcome, self.get_clock().now().to_msg())

    def _send_tree(self, outcome: TreeOutcome) -> None:
        if outcome.command is not None:
            self._goal.cancel()  # the arm was given another motion
            self._servo.stop()
            self._commands.send(outcome.command)

    def _output_tree(self, outcome: TreeOutcome, settings) -> None:
        # Runs on the tip targets' worker after each streamed solve.
        with self._worker_output:
            if self._closing.is_set():
                return
            self._send_tree(outcome)
            self._log.outcome(outcome, 'tip target')
            self._status_publisher.publish(tree_status_message(
                outcome, stamp=self.get_clock().now().to_msg(), tips=settings.tip_links))

    def _joint_limits(self):
        try:
            return read_joint_limits_file(self._node_parameters.value('joint_limits_file'))
        except InvalidLimitsError as error:
            self.get_logger().error('%s; Cartesian paths use acceleration_limit for every '
                                    'joint' % error)
            return {}

    def _on_path_outcome(self, outcome: PathOutcome) -> None:
        # Runs on the CartesianPath worker, once per request, after its command was sent.
        if outcome.command is not None:
            self._goal.cancel()  # the arm was given another motion
        if outcome.success:
            self.get_logger().info('cartesian_path: %s' % outcome.message)
        else:
            self._log.warn('cartesian_path_%s' % outcome.code.name.lower(),
                           'cartesian_path: %s (%s)' % (outcome.message.splitlines()[0],
                                                        outcome.code.name))

    def _publish_feedback(self, outcome: IKOutcome, base_link: str, *, status: bool) -> None:
        frame_id = outcome.chain.base_link if outcome.chain is not None else base_link
        target, reached = poses = outcome_poses(outcome)
        if status:
            self._status_publisher.publish(status_message(
                outcome, stamp=self.get_clock().now().to_msg(), frame_id=frame_id, poses=poses))
        if outcome.chain is not None:
            self._marker_publisher.publish(solve_markers(
                frame_id, target, reached, outcome.success, outcome.collision,
                colour=outcome_colour(outcome)))


def main(args: Optional[List[str]] = None) -> None:
    """Run the ik_node until interrupted (console script ``ik_node``)."""
    run_node(IKNode, args)


if __name__ == '__main__':
    main()
