# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""An SRDF of megabytes holds up no answer while it is read, and its memory is given back."""

import os
from pathlib import Path
import subprocess
import sys

from ik_solvers.engine.memory import release_memory
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String
from test_node_support import start_ur5_node, UR5_CHAIN, UR5_HOME, wait_until

#: Seconds: generous bounds on events that take a second or two.
BOUND = 120.0
SMALL_SRDF = ('<?xml version="1.0"?><robot name="ur5_like"><disable_collisions '
              'link1="base_link" link2="shoulder_link" reason="Adjacent"/></robot>')


def _large_srdf(megabytes: float) -> str:
    # A thousand disabled pairs among hundreds of thousands of groups: a large file of
    # elements, each read and dropped.
    pairs = ''.join('<disable_collisions link1="pad_link_%d" link2="other_link_%d" '
                    'reason="Never"/>' % (index, index) for index in range(1000))
    group = '<group name="group_%07d"><link name="link_%07d"/></group>'
    count = int((megabytes * 1e6 - len(pairs)) / len(group % (0, 0)))
    body = ''.join(group % (index, index) for index in range(count))
    return '<?xml version="1.0"?><robot name="ur5_like">%s%s</robot>' % (pairs, body)


def _reading() -> bool:
    """Tell whether a thread of this process is reading an SRDF (or waiting for a child to)."""
    for frame in sys._current_frames().values():
        while frame is not None:
            if (frame.f_code.co_name == 'set_srdf'
                    and Path(frame.f_code.co_filename).name == 'collision_scene.py'):
                return True
            frame = frame.f_back
    return False


def _rss_megabytes() -> float:
    release_memory()  # of this test's own garbage too: the node runs in this process
    for line in Path('/proc/self/status').read_text().splitlines():
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024.0
    return 0.0


def test_a_large_srdf_holds_up_no_answer_and_its_memory_is_given_back(ros):
    node, probe = start_ur5_node(ros)
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    semantic = probe.node.create_publisher(String, 'robot_description_semantic', latched)
    request = probe.target_request(UR5_CHAIN.fk(UR5_HOME))
    request.timeout.sec = 2
    assert probe.call(request).success
    start = probe.logs.count()
    semantic.publish(String(data=SMALL_SRDF))
    probe.logs.wait_for(lambda log: 'SRDF from' in log.msg, start=start, timeout=BOUND)
    baseline = _rss_megabytes()
    start = probe.logs.count()
    semantic.publish(String(data=_large_srdf(15.5)))
    assert wait_until(_reading, timeout=BOUND), 'the SRDF was never read'
    answered = 0
    while _reading():
        answer = probe.call(request)
        assert answer.success, answer.message
        answered += 1
    assert answered >= 1  # answers kept coming while the SRDF was read
    line = probe.logs.wait_for(lambda log: 'SRDF from' in log.msg, start=start, timeout=BOUND)
    assert 'link pairs are not checked' in line.msg, line.msg
    # A small SRDF replaces it: the memory goes back (within 10 % of where it was).
    start = probe.logs.count()
    semantic.publish(String(data=SMALL_SRDF))
    probe.logs.wait_for(lambda log: 'SRDF from' in log.msg and '1 link pairs' in log.msg,
                        start=start, timeout=BOUND)
    assert probe.call(request).success
    assert wait_until(lambda: _rss_megabytes() <= 1.1 * baseline, timeout=10.0), \
        (baseline, _rss_megabytes())


def test_an_srdf_disabling_more_pairs_than_any_robot_has_is_refused():
    from ik_solvers.collision import parse_srdf
    from ik_solvers.collision.srdf import MAX_SRDF_PAIRS
    from ik_solvers.exceptions import SrdfError
    import pytest
    element = '<disable_collisions link1="a_%d" link2="b_%d" reason="Never"/>'
    text = '<robot name="r">%s</robot>' % ''.join(element % (index, index)
                                                  for index in range(MAX_SRDF_PAIRS + 1))
    with pytest.raises(SrdfError, match='more than %d link pairs' % MAX_SRDF_PAIRS):
        parse_srdf(text)
    nested = ('<robot name="r"><group name="g"><disable_collisions link1="x" link2="y"/>'
              '</group>%s<!-- c --></robot>' % (element % (1, 1)))
    assert parse_srdf(nested).pairs == {frozenset(('a_1', 'b_1'))}  # children of <robot> only
    with pytest.raises(SrdfError, match='root element'):
        parse_srdf('<model name="m"><disable_collisions link1="a" link2="b"/></model>')
    with pytest.raises(SrdfError, match='malformed'):
        parse_srdf('<robot name="r"><disable_collisions link1="a"')


# Run apart, in a fresh interpreter: the peak resident memory (VmHWM) of reading a 15.5 MB SRDF
# of 300,000 small elements, over the peak before it. Read as one tree, as it once was, the
# elements took 160 MB at once; read in chunks, each dropped once read, they take none to speak
# of. Peak memory, not time: what a robot computer runs out of.
_PEAK_SCRIPT = """
import sys
from pathlib import Path
from ik_solvers.collision import parse_srdf
from test_node_large_srdf import _large_srdf

def peak():
    for line in Path('/proc/self/status').read_text().splitlines():
        if line.startswith('VmHWM:'):
            return int(line.split()[1]) / 1024.0

text = _large_srdf(15.5)
text.encode('utf-8')  # the reader's own copy of the bytes, counted before the peak is read
before = peak()
pairs = parse_srdf(text).pairs
print(len(pairs), peak() - before)
"""


def test_reading_a_large_srdf_does_not_build_it_in_memory():
    if not Path('/proc/self/status').is_file():
        import pytest
        pytest.skip('no /proc/self/status to read the peak memory from')
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    process = subprocess.run([sys.executable, '-c', _PEAK_SCRIPT], env=environment,
                             cwd=str(Path(__file__).resolve().parent), text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=BOUND)
    assert process.returncode == 0, process.stdout
    pairs, growth = process.stdout.split()[-2:]
    assert int(pairs) == 1000  # every pair was read
    assert float(growth) < 32.0, 'reading the SRDF took %s MB at its peak' % growth
