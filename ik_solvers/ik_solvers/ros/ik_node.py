# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node: target poses in, verified JointTrajectory commands out, plus a SolveIK service.

A plain rclpy node, like robot_state_publisher. Callbacks only convert messages and hand work
over to :class:`~ik_solvers.ros.engine.IKEngine` on other threads: streamed targets through a
one-slot mailbox to a worker (a burst costs one solve, for the newest), service calls to
:mod:`.solve_service`, descriptions to :mod:`.description_loader`. Run ``ros2 run ik_solvers
ik_node``.
"""

import threading
from typing import Any, Dict, List, Optional, Tuple

from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.msg import IKStatus
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from rcl_interfaces.msg import SetParametersResult
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import (
    DurabilityPolicy,
    qos_profile_sensor_data,
    QoSProfile,
    ReliabilityPolicy,
)
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from visualization_msgs.msg import MarkerArray

from .command_sink import CommandSink
from .conversions import (
    fill_response,
    service_request,
    status_message,
    target_request,
    transform_to_matrix,
)
from .description_loader import DescriptionLoader, description_size_problem
from .engine import IKEngine
from .frames import ExternalLookup, UnknownFrameError
from .latest_target import LatestSlot
from .markers import solve_markers
from .error_codes import ErrorCode
from .names import (
    JOINT_STATES_TOPIC,
    MARKERS_TOPIC,
    NODE_NAME,
    ROBOT_DESCRIPTION_TOPIC,
    STATUS_TOPIC,
    TARGET_POSE_TOPIC,
)
from .node_main import run_node
from .outcome import IKOutcome
from .parameters import (
    check_parameter,
    coerce_value,
    describe,
    NodeSettings,
    PARAMETERS,
)
from .solve_service import SolveIKService
from ..exceptions import InvalidSeedError, InvalidTargetError, RobotModelError
from ..solvers import SOLVERS, warm_up

__all__ = ['IKNode', 'LOG_THROTTLE_PERIOD', 'main']

#: Seconds between two log lines about the same kind of problem.
LOG_THROTTLE_PERIOD = 5.0


class IKNode(Node):
    """Turns target poses into JointTrajectory commands and answers SolveIK calls."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        """
        Declare the parameters, open the topics and the service, start the worker.

        :param node_name: Name of the node.
        :param kwargs: Passed to :class:`rclpy.node.Node` (``namespace``, ``context``,
            ``parameter_overrides``, ...).
        """
        super().__init__(node_name, **kwargs)
        for spec in PARAMETERS:
            # Overrides from the command line or a YAML file may be integers where a float is
            # declared; rclpy would refuse them and stop the node, so convert them here.
            override = self._parameter_overrides.get(spec.name)
            value = spec.default if override is None else coerce_value(spec.name, override.value)
            self.declare_parameter(spec.name, value, describe(spec), ignore_override=True)
        self._loggers: Dict[str, object] = {}
        self._descriptions = DescriptionLoader(self._load_description, lambda error, origin: (
            self.get_logger().error('failed to load the description from %s: %r'
                                    % (origin, error))))
        self._targets: LatestSlot[PoseStamped] = LatestSlot()
        # Held by the worker while it uses the node after a solve; destroy_node takes it to
        # know that the worker will not touch the node again.
        self._worker_output = threading.Lock()
        self._tf_buffer, self._tf_listener, self._tf_exception = None, None, None
        self._engine = IKEngine(external_lookup=self._start_tf())
        if hasattr(self, 'add_pre_set_parameters_callback'):
            # Lets ``ros2 param set timeout 1`` through as 1.0 (Iron and later; Humble refuses
            # the integer with a reason, it does not crash).
            self.add_pre_set_parameters_callback(self._coerce_new_parameters)
        self.add_on_set_parameters_callback(self._check_new_parameters)
        # Post-set callbacks exist from Iron on; on Humble the on-set callback applies the
        # change itself once every check passed.
        self._post_set_supported = hasattr(self, 'add_post_set_parameters_callback')
        if self._post_set_supported:
            self.add_post_set_parameters_callback(self._apply_new_parameters)

        settings = self._settings()
        for name in ('solver', 'orientation_mode', 'tip_axis'):
            problem = check_parameter(name, getattr(settings, name))
            if problem:
                self.get_logger().error('parameter %s: %s; every solve will fail until it is '
                                        'set to a valid value' % (name, problem))
        fallback = self.get_parameter('robot_description').value
        if fallback:
            self._descriptions.submit(fallback, 'the robot_description parameter')

        self._commands = CommandSink(self)
        reliable = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)
        self._status_publisher = self.create_publisher(
            IKStatus, STATUS_TOPIC, QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
        self._marker_publisher = self.create_publisher(MarkerArray, MARKERS_TOPIC, 10)

        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.create_subscription(String, ROBOT_DESCRIPTION_TOPIC, self._on_description, latched)
        self.create_subscription(JointState, JOINT_STATES_TOPIC, self._on_joint_states,
                                 qos_profile_sensor_data)
        # Depth 1: only the newest target matters, older ones would be dropped anyway.
        self.create_subscription(PoseStamped, TARGET_POSE_TOPIC, self._on_target, reliable)
        # The node spins on one thread (rclpy's multi-threaded executor cost more CPU than the
        # solves and made the node skip most dragged goals); solves run on worker threads.
        self._solve_service = SolveIKService(
            self, self._on_solve_ik, lambda: self.get_parameter('max_pending_requests').value)

        self._warm_up_solvers(settings.solver)
        self._worker = threading.Thread(target=self._work, name='ik_node_worker', daemon=True)
        self._worker.start()
        self.get_logger().info(
            'ready: solver %s, targets on %s, commands on %s, service %s' % (
                settings.solver, self.resolve_topic_name(TARGET_POSE_TOPIC),
                self._commands.destination, self._solve_service.service_name))

    def _warm_up_solvers(self, chosen: str) -> None:
        # Compiling a solver takes seconds the first time after an install (then it loads from
        # the disk cache in tens of milliseconds); done here, no drag ever waits for it, and
        # a runtime switch of solver does not either.
        order = ([chosen] if chosen in SOLVERS else []) + [
            name for name in SOLVERS if name != chosen]
        self.get_logger().info('loading the compiled solvers (%s); the first start after an '
                               'install compiles them, which takes a minute' % ', '.join(order))
        elapsed = warm_up(order)
        self.get_logger().info('solvers ready in %.2f s' % elapsed)

    @property
    def descriptions_received(self) -> int:
        """Count the robot descriptions handled so far: loaded, refused, or skipped for newer."""
        return self._descriptions.handled

    def destroy_node(self) -> None:
        """
        Close the mailboxes, then destroy the node without waiting for a solve in flight.

        A solve may last its whole timeout (up to 10 s). Once the mailboxes are closed, no
        worker touches the node again: they only finish their solve and end, so shutdown does
        not wait for them.
        """
        self._descriptions.close(timeout=1.0)
        self._solve_service.close(timeout=0.0)
        self._targets.close()
        with self._worker_output:
            # Only waits for the publications of a finished solve; none start after this.
            pass
        super().destroy_node()

    # Parameters ----------------------------------------------------------------------------

    def _settings(self) -> NodeSettings:
        return NodeSettings.from_values(
            {name: self.get_parameter(name).value for name in NodeSettings.__dataclass_fields__})

    @staticmethod
    def _coerce_new_parameters(parameters: List[Parameter]) -> List[Parameter]:
        coerced = []
        for parameter in parameters:
            value = coerce_value(parameter.name, parameter.value)
            coerced.append(parameter if value is parameter.value
                           else Parameter(parameter.name, value=value))
        return coerced

    def _check_new_parameters(self, parameters: List[Parameter]) -> SetParametersResult:
        reasons = []
        for parameter in parameters:
            reason = check_parameter(parameter.name, parameter.value)
            if reason:
                reasons.append(reason)
        links = self._new_links(parameters)
        if links is not None and not reasons:
            base_link, tip_link = links
            try:
                self._engine.check_links(base_link, tip_link)
            except RobotModelError as error:
                reasons.append('no chain from %r to %r: %s' % (base_link, tip_link, error))
        if reasons:
            self.get_logger().warning('parameter change refused: %s' % '; '.join(reasons))
            return SetParametersResult(successful=False, reason='; '.join(reasons))
        if not self._post_set_supported:
            self._apply_new_parameters(parameters)
        return SetParametersResult(successful=True)

    def _new_links(self, parameters: List[Parameter]) -> Optional[Tuple[str, str]]:
        # Base and tip after the change (the parameters are not committed yet on Humble).
        links = {parameter.name: parameter.value for parameter in parameters
                 if parameter.name in ('base_link', 'tip_link')}
        if not links:
            return None
        return (links.get('base_link', self.get_parameter('base_link').value),
                links.get('tip_link', self.get_parameter('tip_link').value))

    def _apply_new_parameters(self, parameters: List[Parameter]) -> None:
        # Runs once rclpy committed the change: a refused change must not swap the model.
        links = self._new_links(parameters)
        if links is not None:
            self._engine.adopt_links(*links)
        for parameter in parameters:
            self.get_logger().info('parameter %s set to %r' % (parameter.name, parameter.value))

    # Logging -------------------------------------------------------------------------------

    def _warn(self, kind: str, message: str) -> None:
        # rclpy throttles per logger and call site: a child logger per kind of problem keeps a
        # burst of one kind from hiding the first occurrence of another.
        if kind not in self._loggers:
            self._loggers[kind] = self.get_logger().get_child(kind)
        self._loggers[kind].warning(message, throttle_duration_sec=LOG_THROTTLE_PERIOD)

    def _log_outcome(self, outcome: IKOutcome, origin: str) -> None:
        if outcome.error_code == ErrorCode.INTERNAL_ERROR:
            self.get_logger().error('%s: %s' % (origin, outcome.message))
            return
        for note in outcome.notes:
            self._warn('joint_states', note)
        if outcome.success:
            self.get_logger().debug('%s: %s' % (origin, outcome.message))
            return
        # A child logger per code (e.g. 'invalid_target') keeps one kind from hiding another.
        kind = outcome.log_kind or outcome.error_code.name.lower()
        self._warn(kind, '%s: %s' % (origin, outcome.message))

    # TF ------------------------------------------------------------------------------------

    def _start_tf(self) -> Optional[ExternalLookup]:
        try:
            import tf2_ros
        except ImportError:
            self.get_logger().info('tf2_ros is not installed: target frames must be links of '
                                   'the robot description')
            return None
        self._tf_buffer = tf2_ros.Buffer(node=self)
        self._tf_listener = tf2_ros.TransformListener(self._tf_buffer, self)
        self._tf_exception = tf2_ros.TransformException
        return self._lookup_transform

    def _lookup_transform(self, base_link: str, frame_id: str, timeout: float) -> np.ndarray:
        try:
            transform = self._tf_buffer.lookup_transform(
                base_link, frame_id, Time(), timeout=Duration(seconds=timeout))
            return transform_to_matrix(transform.transform)
        except (self._tf_exception, InvalidTargetError) as error:
            raise UnknownFrameError('no transform from %r to %r within %g s: %s'
                                    % (frame_id, base_link, timeout, error))

    # Inputs --------------------------------------------------------------------------------

    def _load_description(self, urdf_xml: str, origin: str) -> None:
        # Runs on the description loader's thread; the current model serves meanwhile.
        try:
            too_large = description_size_problem(urdf_xml)
            if too_large:
                raise RobotModelError(too_large)
            # The links are read once the text is parsed: they may change during a long parse.
            chain = self._engine.load_description_for(urdf_xml, lambda: (
                self.get_parameter('base_link').value, self.get_parameter('tip_link').value))
        except RobotModelError as error:
            keeping = ('keeping the previous robot model' if self._engine.has_model
                       else 'waiting for a valid robot_description')
            self._warn('robot_description',
                       'refused the description from %s: %s; %s' % (origin, error, keeping))
            return
        self.get_logger().info('robot model from %s: chain %s -> %s, %d joints (%s)' % (
            origin, chain.base_link, chain.tip_link, chain.num_joints,
            ', '.join(chain.joint_names)))

    def _on_description(self, message: String) -> None:
        self._descriptions.submit(message.data, 'the %s topic' % ROBOT_DESCRIPTION_TOPIC)

    def _on_joint_states(self, message: JointState) -> None:
        try:
            dropped = self._engine.update_joint_states(message.name, message.position)
        except InvalidSeedError as error:
            self._warn('joint_states', 'ignored a joint_states message: %s' % error)
            return
        if dropped:
            self._warn('joint_states_not_finite', 'joint_states: ignored the NaN or infinite '
                       'positions of %s; the other joints were updated' % ', '.join(dropped))

    def _on_target(self, message: PoseStamped) -> None:
        self._targets.put(message)

    # Streamed solves -----------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            target = self._targets.take(timeout=1.0)
            if target is None:
                if self._targets.closed:
                    return
                continue
            try:
                self._solve_streamed(target)
            except Exception as error:  # noqa: B902 - the worker must outlive any bug
                if not self._targets.closed:
                    self.get_logger().error('streamed solve failed: %r' % error)

    def _solve_streamed(self, target: PoseStamped) -> None:
        settings = self._settings()
        outcome = self._engine.execute(
            self._engine.solve(target_request(target), settings), settings, streamed=True)
        with self._worker_output:
            if self._targets.closed:
                return  # the node is being destroyed while this solve ran
            self._send(outcome)
            if outcome.error_code == ErrorCode.NO_ROBOT_MODEL and not self._engine.has_model:
                self.get_logger().warning(
                    'waiting for robot_description on %s; targets are ignored until one '
                    'arrives' % self.resolve_topic_name(ROBOT_DESCRIPTION_TOPIC), once=True)
            else:
                self._log_outcome(outcome, 'target_pose')
            self._publish_feedback(outcome, settings, status=True)

    def _send(self, outcome: IKOutcome) -> None:
        if outcome.command is not None:
            self._commands.send(outcome.command)

    def _publish_feedback(self, outcome: IKOutcome, settings: NodeSettings, *,
                          status: bool) -> None:
        frame_id = (outcome.chain.base_link if outcome.chain is not None
                    else settings.base_link)
        if status:
            self._status_publisher.publish(status_message(
                outcome, stamp=self.get_clock().now().to_msg(), frame_id=frame_id))
        if outcome.chain is not None:
            self._marker_publisher.publish(
                solve_markers(frame_id, outcome.target, outcome.reached, outcome.success))

    # Service -------------------------------------------------------------------------------

    def _on_solve_ik(self, request: SolveIK.Request,
                     response: SolveIK.Response) -> SolveIK.Response:
        # Runs on a worker of the SolveIK service, never on the executor's thread.
        try:
            settings = self._settings()
            outcome = self._engine.solve(service_request(request), settings)
            if request.execute:
                outcome = self._engine.execute(outcome, settings, streamed=False)
                self._send(outcome)
            self._log_outcome(outcome, 'solve_ik')
            self._publish_feedback(outcome, settings, status=False)
            return fill_response(response, outcome, self.get_clock().now().to_msg())
        except Exception as error:  # noqa: B902 - a bug must not take the service down
            self.get_logger().error('solve_ik failed: %r' % error)
            response.success = False
            response.error_code = int(ErrorCode.INTERNAL_ERROR)
            response.message = 'internal error: %r' % error
            return response


def main(args: Optional[List[str]] = None) -> None:
    """Run the ik_node until interrupted (console script ``ik_node``)."""
    run_node(IKNode, args)


if __name__ == '__main__':
    main()
