# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The target topics of several end effectors: ``target_pose/<tip>``, one per tip of ``tip_links``.

Each topic keeps the latest target of its tip. Whenever one arrives, the goal is the latest
target of every tip; a tip that never had one holds the pose it had when the first target of
any tip came (that pose is kept as its target from then on, so that it does not creep). The
worker solves the newest goal only: a burst costs one solve. A goal that was not commanded
(too far for ``max_joint_jump``, or not found in a streamed solve's time) and that no newer
target follows within :data:`~ik_solvers.engine.held_goal.HOLD_PERIOD` is driven to as one
motion: solved again as a one-shot ``execute`` request from where the arms are, with
:data:`~ik_solvers.engine.held_goal.EXACT_TIMEOUT`, up to
:data:`~ik_solvers.engine.held_goal.EXACT_ATTEMPTS` times while it is not commanded. Each
outcome goes to the node, which sends its command and publishes the status.
"""

import dataclasses
import threading
from typing import Callable, Dict, Optional, Tuple

from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from .conversions import matrix_to_pose
from .names import tip_target_topic
from .tree_conversions import tip_target, tree_service_request
from ..engine.error_codes import ErrorCode
from ..engine.held_goal import EXACT_ATTEMPTS, EXACT_TIMEOUT, HOLD_PERIOD
from ..engine.latest_target import LatestSlot
from ..engine.outcome import IKRequest, TipTarget
from ..engine.pipeline import IKEngine
from ..engine.refusal import refusal_for
from ..engine.settings import NodeSettings
from ..engine.tree_outcome import TreeOutcome
from ..exceptions import IKError

__all__ = ['GATHER_PERIOD', 'TreeTargets', 'solve_tree_call']

#: s the worker waits after a tip's target for the other tips' of the same instant.
GATHER_PERIOD = 0.002

#: Streamed outcomes whose goal a one-shot solve may still reach.
_DRIVEN_ON = frozenset({ErrorCode.EXECUTION_FAILED, ErrorCode.NO_SOLUTION, ErrorCode.TIMED_OUT,
                        ErrorCode.IN_COLLISION})

#: Called on the worker thread with each streamed outcome.
OutcomeOutput = Callable[[TreeOutcome, NodeSettings], None]


def solve_tree_call(engine: IKEngine, request: SolveIK.Request,
                    settings: NodeSettings) -> TreeOutcome:
    """
    Answer a SolveIK call of several tips; never raises.

    :param engine: Solves it (:meth:`IKEngine.handle_tree`).
    :param request: The call.
    :param settings: The node's parameters.
    :returns: The outcome; ``INVALID_TIPS`` when tips and targets differ in number.
    """
    try:
        return engine.handle_tree(tree_service_request(request), settings)
    except IKError as error:
        refusal = refusal_for(error)
        return TreeOutcome(refusal.code, refusal.message)


class TreeTargets:
    """Subscribes to each tip's target topic and solves the latest goal on a worker."""

    def __init__(self, node: Node, engine: IKEngine, tips: Tuple[str, ...],
                 settings: Callable[[], NodeSettings], output: OutcomeOutput) -> None:
        """
        Open one target topic per tip and start the worker (none for fewer than two tips).

        :param node: The node.
        :param engine: Solves each goal (:meth:`IKEngine.handle_tree`).
        :param tips: The node's tips (``tip_links``), read once at start-up.
        :param settings: Gives the node's parameters now.
        :param output: Sends and reports each outcome.
        """
        self._engine, self._settings, self._output = engine, settings, output
        self._lock = threading.Lock()
        self._latest: Dict[str, TipTarget] = {}
        self._wake: LatestSlot[bool] = LatestSlot()
        self.topics = []
        if len(tips) < 2:
            self._worker = None
            return
        qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
        for tip in tips:
            topic = tip_target_topic(tip)
            node.create_subscription(PoseStamped, topic,
                                     lambda message, tip=tip: self._on_target(tip, message), qos)
            self.topics.append(node.resolve_topic_name(topic))
        self._worker = threading.Thread(target=self._work, name='ik_node_tree_worker',
                                        daemon=True)
        self._worker.start()

    def _on_target(self, tip: str, message: PoseStamped) -> None:
        with self._lock:
            self._latest[tip] = tip_target(tip, message)
        self._wake.put(True)

    def close(self) -> None:
        """Stop the worker after its solve in flight."""
        self._wake.close()

    def _work(self) -> None:
        pending: Optional[IKRequest] = None  # a goal not commanded yet
        drives = 0  # one-shot attempts at it
        while True:
            woken = self._wake.take(timeout=None if pending is None else HOLD_PERIOD)
            if woken is not None:
                # The targets of several tips sent together arrive a moment apart: gathered
                # into one goal (and one solve) rather than solved once with each.
                while self._wake.take(timeout=GATHER_PERIOD) is not None:
                    pass
            if self._wake.closed:
                return
            settings = self._settings()
            if woken is None:  # no newer target: drive to the goal as one motion
                request = dataclasses.replace(pending, streamed=False, execute=True,
                                              timeout=max(settings.timeout, EXACT_TIMEOUT))
                outcome = self._engine.handle_tree(request, settings)
                self._output(outcome, settings)
                drives += 1
                # As for a chain (EXACT_ATTEMPTS): tried again a moment later, when the arms
                # were still moving, or from other restarts, when every answer or motion found
                # collided; then given up.
                if (outcome.commanded or outcome.error_code not in _DRIVEN_ON
                        or drives >= EXACT_ATTEMPTS):
                    pending, drives = None, 0
                continue
            drives = 0
            with self._lock:
                targets = tuple(self._latest.values())
            request = IKRequest(position=(0.0, 0.0, 0.0), streamed=True, tip_targets=targets)
            outcome = self._engine.handle_tree(request, settings)
            self._hold_untargeted(outcome)
            self._output(outcome, settings)
            pending = None
            if not outcome.commanded and outcome.error_code in _DRIVEN_ON:
                with self._lock:
                    pending = dataclasses.replace(
                        request, tip_targets=tuple(self._latest.values()))

    def _hold_untargeted(self, outcome: TreeOutcome) -> Optional[int]:
        # The pose each untargeted tip held in this solve becomes its target.
        if not outcome.targets:
            return None
        with self._lock:
            for tip, target in zip(outcome.tips, outcome.targets):
                if tip not in self._latest:
                    pose = matrix_to_pose(np.asarray(target))
                    self._latest[tip] = TipTarget(
                        tip=tip, position=(pose.position.x, pose.position.y, pose.position.z),
                        orientation=(pose.orientation.x, pose.orientation.y,
                                     pose.orientation.z, pose.orientation.w),
                        frame_id=outcome.base_link)
        return len(self._latest)
