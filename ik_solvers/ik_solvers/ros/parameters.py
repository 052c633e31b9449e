# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node's parameter descriptors, built from the plain ranges of :mod:`..engine.settings`.

Every name, default and range is written once, in the engine's settings; this module only
puts them into the ``rcl_interfaces`` type rclpy declares parameters with.
"""

from rcl_interfaces.msg import (
    FloatingPointRange,
    IntegerRange,
    ParameterDescriptor,
    ParameterType,
)

from ..engine.settings import ParameterSpec

__all__ = ['describe']

_TYPES = {bool: ParameterType.PARAMETER_BOOL, float: ParameterType.PARAMETER_DOUBLE,
          int: ParameterType.PARAMETER_INTEGER, str: ParameterType.PARAMETER_STRING,
          tuple: ParameterType.PARAMETER_DOUBLE_ARRAY}


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
