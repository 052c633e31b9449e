# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Robot descriptions are parsed on a thread of their own, newest first, within a size bound.

A large description takes seconds to parse. Parsed on the thread that spins the node, it would
hold up every target, joint state and service call meanwhile; here the node's callbacks only
hand the text over, and the model in use keeps serving until the new one is ready.
"""

from contextlib import contextmanager
import gc
import threading
from typing import Callable, Iterator, Optional, Tuple

from .latest_target import LatestSlot
from .memory import APART_INPUT_BYTES, release_memory

__all__ = [
    'DescriptionLoader',
    'MAX_DESCRIPTION_BYTES',
    'description_size_problem',
    'paused_garbage_collection',
]

#: Largest robot description accepted, in bytes of UTF-8. Real URDFs are well under 2 MB
#: (geometry lives in mesh files); 20 MB leaves room and bounds the time a parse may take.
MAX_DESCRIPTION_BYTES = 20_000_000

# A collection threshold never reached while a description is parsed.
_NEVER = 1 << 30

#: Handles one description: ``load(urdf_xml, origin)``.
LoadFunction = Callable[[str, str], None]
#: Told of an exception ``load`` raised: ``on_error(error, origin)``.
ErrorFunction = Callable[[Exception, str], None]
#: Told of a description replaced by a newer one before it was loaded: ``on_skip(origin,
#: characters)``.
SkipFunction = Callable[[str, int], None]


def description_size_problem(urdf_xml: str) -> Optional[str]:
    """
    Check a description against :data:`MAX_DESCRIPTION_BYTES` without parsing it.

    :param urdf_xml: The URDF text.
    :returns: ``None`` when it is small enough, otherwise why it is refused.
    """
    # A character takes 1 to 4 bytes: only texts in between need encoding to be measured.
    if len(urdf_xml) > MAX_DESCRIPTION_BYTES:
        return ('the description has %d characters; at most %d bytes are accepted'
                % (len(urdf_xml), MAX_DESCRIPTION_BYTES))
    if 4 * len(urdf_xml) > MAX_DESCRIPTION_BYTES:
        size = len(urdf_xml.encode('utf-8', errors='replace'))
        if size > MAX_DESCRIPTION_BYTES:
            return ('the description is %d bytes; at most %d are accepted'
                    % (size, MAX_DESCRIPTION_BYTES))
    return None


@contextmanager
def paused_garbage_collection() -> Iterator[None]:
    """
    Hold off Python's full garbage collections while a description is parsed.

    Parsing a large description allocates objects by the hundred thousand, and every full
    collection that triggers scans them all while holding the interpreter lock: each stalls
    the solving threads for up to hundreds of milliseconds. Young collections go on, so
    that garbage made meanwhile by other threads (and the parser's) is still freed as usual;
    switching the collector off instead left one young collection of everything allocated
    during the parse, a quarter of a second. Restores the thresholds it found; nests safely.
    """
    thresholds = gc.get_threshold()
    # The oldest generation is collected when its count passes this threshold.
    gc.set_threshold(thresholds[0], thresholds[1], _NEVER)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


class DescriptionLoader:
    """One worker thread that loads the newest description handed to it."""

    def __init__(self, load: LoadFunction, on_error: ErrorFunction, *,
                 on_skip: Optional[SkipFunction] = None,
                 name: str = 'description_loader') -> None:
        """
        Start the worker.

        :param load: Called on the worker thread with each description to load and where it
            came from; a description replaced by a newer one before the worker took it is
            skipped.
        :param on_error: Called on the worker thread when ``load`` raises; the worker goes on.
        :param on_skip: Called on the submitting thread when a description that waited is
            replaced by a newer one and will never be loaded.
        :param name: Name of the worker thread.
        """
        self._load = load
        self._on_error = on_error
        self._on_skip = on_skip
        self._slot: LatestSlot[Tuple[str, str]] = LatestSlot()
        self._lock = threading.Lock()
        self._handled = 0
        self._size = 0  # of the latest text handled, in characters
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    @property
    def handled(self) -> int:
        """Count the descriptions loaded, refused, or skipped for a newer one."""
        with self._lock:
            return self._handled + self._slot.dropped

    def submit(self, urdf_xml: str, origin: str) -> None:
        """
        Hand a description to the worker; returns at once.

        :param urdf_xml: The URDF text.
        :param origin: Where it came from, for the log (e.g. "the robot_description topic").
        """
        skipped = self._slot.put((urdf_xml, origin))
        if skipped is not None and self._on_skip is not None:
            self._on_skip(skipped[1], len(skipped[0]))

    def close(self, timeout: float) -> None:
        """
        Stop the worker: the description being loaded is finished, a waiting one is dropped.

        :param timeout: Longest wait for the worker, in seconds.
        """
        self._slot.close()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=timeout)

    def _work(self) -> None:
        while True:
            item = self._slot.take(timeout=1.0)
            if item is None:
                if self._slot.closed:
                    return
                continue
            try:
                with paused_garbage_collection():
                    self._load(*item)
            except Exception as error:  # noqa: B902 - one bad description must not end the worker
                self._on_error(error, item[1])
            finally:
                with self._lock:
                    self._handled += 1
                # A large text came or went: the memory its parse took goes back to the system.
                previous, self._size = self._size, len(item[0])
                if max(previous, self._size) > APART_INPUT_BYTES:
                    item = None
                    release_memory()
