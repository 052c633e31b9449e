# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The layout of the flat arrays that carry a call into the compiled search and its outcome back.

A compiled call takes a few plain float arrays rather than objects: numba unboxes them in
nanoseconds. ``solve()`` packs the settings, the search reads them by these indices, and the
search fills the report.
"""

__all__ = [
    'MODE_AXIS',
    'MODE_FULL',
    'MODE_NONE',
    'PER_CALL_SETTINGS',
    'REPORT_SIZE',
    'SETTINGS_SIZE',
    'STATUS_NO_SOLUTION',
    'STATUS_SUCCESS',
    'STATUS_TIMED_OUT',
]

# Settings (float64). The entries before PER_CALL_SETTINGS change with every call.
POSITION_TOLERANCE = 0        # m; inf when per-axis position bounds replace it
ORIENTATION_TOLERANCE = 1     # rad; inf when per-axis rotation bounds replace it
ORIENTATION_WEIGHT = 2        # m per rad
ORIENTATION_MODE = 3          # MODE_FULL, MODE_NONE or MODE_AXIS
DEADLINE = 4                  # s, on the monotonic clock (time.perf_counter)
HANDOFF_POSITION = 5          # m: the heuristic hands over to the polish within this ...
HANDOFF_ORIENTATION = 6       # rad: ... and this
TIP_AXIS = 7                  # 7-9: unit axis of the tip frame that MODE_AXIS aims
POSITION_BOUNDED = 10         # 1.0 when the position is judged by the 3 bounds that follow
POSITION_BOUNDS = 11          # 11-13: m, per axis of the base frame (inf: free)
ROTATION_BOUNDED = 14         # 1.0 when the rotation is judged by the 3 bounds that follow
ROTATION_BOUNDS = 15          # 15-17: rad, per axis of the target frame (inf: free)
PER_CALL_SETTINGS = 18
HEURISTIC_ITERATIONS = 18     # cap on heuristic steps per start
STALL_ITERATIONS = 19         # steps without a 5 % lower cost that end a start
TRUST_REGION = 20             # gain of the trust region; inf for none
POLISH_ITERATIONS = 21        # cap on polish steps per start; 0 turns the polish off
MAX_ATTEMPTS = 22             # cap on starts; inf for none
HANDOFF_RATIO = 23            # with the polish: hand over once a step leaves more than this
#                               fraction of the cost it started from (progress slows)
EXTRAPOLATION = 24            # alone: 0 never extrapolate, 1 when the orientation counts, 2 always
SECANT_MEMORY = 25            # extrapolating: iterations the secant (Anderson) point mixes; 0 none
START_NEAR = 26               # written by the search at every start: 1.0 when the start began
#                               near its goal or is a warm seed's, else 0.0 (see start_gain)
SETTINGS_SIZE = 27

# Orientation modes: the whole pose, no orientation, or one tip axis aimed (spin free).
MODE_FULL = 0.0
MODE_NONE = 1.0
MODE_AXIS = 2.0

# Report (float64), filled by the search.
REPORT_STATUS = 0
REPORT_ATTEMPTS = 1
REPORT_HEURISTIC_ITERATIONS = 2
REPORT_POLISH_ITERATIONS = 3
REPORT_POSITION_ERROR = 4     # m, of the returned q by forward kinematics
REPORT_ORIENTATION_ERROR = 5  # rad, likewise, as the mode defines it
REPORT_MET = 6                # 1.0 when they meet every tolerance and bound of the goal
# The search's own cost (m) in the last start (the one that succeeded, on success): at its
# beginning, where the heuristic stopped (the hand-over), and at its end.
REPORT_START_COST = 7
REPORT_HANDOFF_COST = 8
REPORT_FINAL_COST = 9
REPORT_SIZE = 10

STATUS_SUCCESS = 0
STATUS_NO_SOLUTION = 1
STATUS_TIMED_OUT = 2
