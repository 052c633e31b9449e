# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node's parameters on the node: declared, checked when changed, and read as one snapshot.

Every parameter is one row of the table :data:`ik_solvers.engine.settings.PARAMETERS`; here
each row is declared with rclpy under a descriptor built from it (:func:`describe`, what
``ros2 param describe`` shows), changes are coerced and checked against it (and a change of the
links must give a chain of a received description), and every accepted change replaces one
:class:`NodeSettings` snapshot that each request reads whole.
:mod:`.parameter_services` keeps rclpy's parameter services answering whatever a client sends.
"""

from typing import Callable, List, Optional, Tuple

from rcl_interfaces.msg import (
    FloatingPointRange,
    IntegerRange,
    ParameterDescriptor,
    ParameterType,
    SetParametersResult,
)
from rclpy.node import Node
from rclpy.parameter import Parameter

from ..engine.settings import (
    check_parameter,
    coerce_value,
    NameList,
    NodeSettings,
    ParameterSpec,
    PARAMETERS,
)
from ..exceptions import InvalidParameterError, RobotModelError

__all__ = ['NodeParameters', 'describe']

#: ``check(base_link, tip_link)`` raises RobotModelError when no description gives the chain.
LinksCheck = Callable[[str, str], None]
#: ``adopt(base_link, tip_link)`` follows links that changed.
LinksAdoption = Callable[[str, str], None]


_TYPES = {bool: ParameterType.PARAMETER_BOOL, float: ParameterType.PARAMETER_DOUBLE,
          int: ParameterType.PARAMETER_INTEGER, str: ParameterType.PARAMETER_STRING,
          tuple: ParameterType.PARAMETER_DOUBLE_ARRAY,
          NameList: ParameterType.PARAMETER_STRING_ARRAY}


def describe(spec: ParameterSpec) -> ParameterDescriptor:
    """
    Build the descriptor rclpy declares ``spec`` with.

    :param spec: The parameter.
    :returns: Its descriptor, with type, description, constraints, range and read-only flag.
    """
    descriptor = ParameterDescriptor(
        name=spec.name, type=_TYPES[type(spec.default)], description=spec.description,
        additional_constraints=spec.constraints, read_only=spec.read_only)
    if isinstance(spec.default, tuple) and not spec.default:
        # rclpy types an empty list as a byte array and would then refuse every list of
        # doubles: an array that may be empty is typed by its value (checked by the node).
        descriptor.type = ParameterType.PARAMETER_NOT_SET
        descriptor.dynamic_typing = True
    if spec.floating_range is not None:
        low, high = spec.floating_range
        descriptor.floating_point_range = [
            FloatingPointRange(from_value=float(low), to_value=float(high), step=0.0)]
    if spec.integer_range is not None:
        low, high = spec.integer_range
        descriptor.integer_range = [IntegerRange(from_value=low, to_value=high, step=1)]
    return descriptor


class NodeParameters:
    """Declares the parameters of a node and keeps the snapshot of their current values."""

    def __init__(self, node: Node, check_links: LinksCheck, adopt_links: LinksAdoption) -> None:
        """
        Declare every parameter of :data:`PARAMETERS` and watch their changes.

        :param node: The node; overrides from the command line or a YAML file apply, each
            checked as a change at runtime is.
        :param check_links: Checks new base and tip links before they are accepted.
        :param adopt_links: Told of base and tip links once the change is committed.
        :raises InvalidParameterError: An override is of the wrong type or refused by the
            runtime check (its range exactly as written, the solver's name, the modes); the
            message names every one.
        """
        self._node = node
        self._check_links = check_links
        self._adopt_links = adopt_links
        values = {}
        problems = []
        for spec in PARAMETERS:
            # Overrides may be integers where a float is declared; rclpy would refuse them and
            # stop the node, so convert them here.
            override = node._parameter_overrides.get(spec.name)
            values[spec.name] = value = (spec.default if override is None
                                         else coerce_value(spec.name, override.value))
            if override is not None:
                # The same checks as a change at runtime: rclpy's own admits values 1e-6 past
                # a range's end, and checks neither the solver's name nor the modes.
                problem = _wrong_type(spec.name, spec.default, value) or check_parameter(
                    spec.name, value)
                if problem:
                    problems.append(problem)
        if problems:
            # A node that cannot run as configured does not start: running with another
            # value than the launch file's, or failing every solve, would hide the mistake.
            raise InvalidParameterError('refused the start-up parameters (command line, '
                                        'launch file or YAML): %s' % '; '.join(problems))
        for spec in PARAMETERS:
            node.declare_parameter(spec.name, values[spec.name], describe(spec),
                                   ignore_override=True)
        #: The values of the parameters a solve uses, as one consistent snapshot; replaced
        #: whole on every accepted change, so a reader never sees half a change.
        self.settings: NodeSettings = self._snapshot([])
        if hasattr(node, 'add_pre_set_parameters_callback'):
            # Lets ``ros2 param set timeout 1`` through as 1.0 (Iron and later; Humble refuses
            # the integer with a reason, it does not crash).
            node.add_pre_set_parameters_callback(self._coerce)
        node.add_on_set_parameters_callback(self._check)
        # Post-set callbacks exist from Iron on; on Humble the on-set callback applies the
        # change itself once every check passed.
        self._post_set_supported = hasattr(node, 'add_post_set_parameters_callback')
        if self._post_set_supported:
            node.add_post_set_parameters_callback(self._apply)

    def value(self, name: str):
        """Return the current value of a parameter."""
        return self._node.get_parameter(name).value

    def links(self) -> Tuple[str, str]:
        """Return ``(base_link, tip_link)`` as configured now (the first of tip_links if set)."""
        tips = self.value('tip_links')
        return self.value('base_link'), (str(tips[0]) if tips else self.value('tip_link'))

    def _snapshot(self, changed: List[Parameter]) -> NodeSettings:
        # On Humble the change is not committed yet when it is applied: overlay it.
        values = {name: self.value(name) for name in NodeSettings.__dataclass_fields__}
        values.update((parameter.name, parameter.value) for parameter in changed
                      if parameter.name in values)
        return NodeSettings.from_values(values)

    @staticmethod
    def _coerce(parameters: List[Parameter]) -> List[Parameter]:
        coerced = []
        for parameter in parameters:
            value = coerce_value(parameter.name, parameter.value)
            coerced.append(parameter if value is parameter.value
                           else Parameter(parameter.name, value=value))
        return coerced

    def _check(self, parameters: List[Parameter]) -> SetParametersResult:
        reasons = [reason for reason in (check_parameter(parameter.name, parameter.value)
                                         for parameter in parameters) if reason]
        links = self._new_links(parameters)
        if links is not None and not reasons:
            try:
                self._check_links(*links)
            except RobotModelError as error:
                reasons.append('no chain from %r to %r: %s' % (links[0], links[1], error))
        if reasons:
            self._node.get_logger().warning('parameter change refused: %s' % '; '.join(reasons))
            return SetParametersResult(successful=False, reason='; '.join(reasons))
        if not self._post_set_supported:
            self._apply(parameters)
        return SetParametersResult(successful=True)

    def _new_links(self, parameters: List[Parameter]) -> Optional[Tuple[str, str]]:
        # Base and tip after the change (the parameters are not committed yet on Humble).
        links = {parameter.name: parameter.value for parameter in parameters
                 if parameter.name in ('base_link', 'tip_link', 'tip_links')}
        if not links:
            return None
        base_link = links.get('base_link', self.value('base_link'))
        tips = links.get('tip_links', self.value('tip_links'))
        # The chain's tip: the first of tip_links while it is set, otherwise tip_link.
        tip_link = str(tips[0]) if tips else links.get('tip_link', self.value('tip_link'))
        return base_link, tip_link

    def _apply(self, parameters: List[Parameter]) -> None:
        # Runs once the change is accepted: a refused change must not swap the model.
        links = self._new_links(parameters)
        if links is not None:
            self._adopt_links(*links)
        self.settings = self._snapshot(parameters)
        for parameter in parameters:
            self._node.get_logger().info('parameter %s set to %r'
                                         % (parameter.name, parameter.value))


def _wrong_type(name: str, default, value) -> str:
    """Say why ``value`` is not of the declared type of ``name``, or return ''."""
    if isinstance(default, NameList):
        return '' if isinstance(value, (list, tuple)) else (
            '%s must be a list of strings; got %r' % (name, value))
    if isinstance(default, tuple):
        return '' if isinstance(value, (list, tuple)) or hasattr(value, 'typecode') else (
            '%s must be a list of numbers; got %r' % (name, value))
    if type(value) is not type(default):
        return '%s must be a %s; got %r' % (name, type(default).__name__, value)
    return ''
