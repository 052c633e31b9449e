# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmarks of ik_solvers: solver success rates and timings, and kinematics timings."""
