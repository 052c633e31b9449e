# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The pairs of links a semantic description (SRDF) says never need checking.

Only ``<disable_collisions link1=... link2=... reason=.../>`` is read, as MoveIt reads it; the
rest of the SRDF (groups, end effectors, virtual joints, named states) is ignored.
"""

from dataclasses import dataclass
from typing import FrozenSet, Iterable, Tuple

from lxml import etree

from ..exceptions import SrdfError

__all__ = ['DisabledPairs', 'MAX_SRDF_PAIRS', 'link_pair', 'parse_srdf']

# A semantic description is a few kilobytes; one of tens of megabytes is a mistake.
MAX_SRDF_BYTES = 16 * 1024 * 1024
# Links whose every pair an SRDF may disable: a robot of 316 links, far beyond real ones (a
# humanoid with two hands has about a hundred).
_LINKS_OF_MOST_PAIRS = 316
#: Most <disable_collisions> an SRDF may hold; more is refused (each pair costs memory).
MAX_SRDF_PAIRS = _LINKS_OF_MOST_PAIRS * (_LINKS_OF_MOST_PAIRS - 1) // 2
# Bytes fed to the parser at a time.
_CHUNK_BYTES = 64 * 1024


def link_pair(first: str, second: str) -> FrozenSet[str]:
    """Return the unordered pair of two names."""
    return frozenset((first, second))


@dataclass(frozen=True)
class DisabledPairs:
    """
    Link pairs whose contacts are never checked, with the SRDF's reason for each.

    :ivar pairs: unordered pairs of link names.
    :ivar reasons: ``(link1, link2, reason)`` of each pair's first ``<disable_collisions>``, in
        the order of the SRDF (a pair written again is counted once, as MoveIt's loader does).
    :ivar robot_name: the ``name`` of the SRDF's ``<robot>``.
    """

    pairs: FrozenSet[FrozenSet[str]] = frozenset()
    reasons: Tuple[Tuple[str, str, str], ...] = ()
    robot_name: str = ''

    def unknown(self, link_names: Iterable[str]) -> Tuple[Tuple[str, str], ...]:
        """Return the pairs that name a link not in ``link_names``, sorted."""
        known = set(link_names)
        return tuple(sorted(tuple(sorted(pair)) for pair in self.pairs
                            if not pair <= known))


def parse_srdf(srdf_xml: str) -> DisabledPairs:
    """
    Read the ``<disable_collisions>`` pairs of an SRDF.

    :param srdf_xml: the semantic description, text or bytes.
    :returns: The pairs.
    :raises SrdfError: the text is empty, too large or not XML, its root is not ``<robot>``,
        a ``<disable_collisions>`` lacks ``link1`` or ``link2`` (the message says which
        element, by its line), or there are more than :data:`MAX_SRDF_PAIRS` distinct pairs
        (a pair repeated, in either order, counts once).
    """
    data = srdf_xml.encode('utf-8') if isinstance(srdf_xml, str) else srdf_xml
    if not isinstance(data, bytes):
        raise SrdfError('the SRDF must be XML text, not %s' % type(srdf_xml).__name__)
    if not data.strip():
        raise SrdfError('the SRDF is empty')
    if len(data) > MAX_SRDF_BYTES:
        raise SrdfError('the SRDF is %.1f MB (%d bytes), more than the %.1f MB accepted'
                        % (len(data) / 1e6, len(data), MAX_SRDF_BYTES / 1e6))
    # Read in chunks, each element dropped once read: the tree of a large SRDF never exists
    # (it took hundreds of megabytes), and between chunks other threads get the interpreter
    # lock, which lxml holds for the whole of a one-piece parse of megabytes.
    parser = etree.XMLPullParser(events=('start', 'end'), resolve_entities=False,
                                 no_network=True, remove_comments=True)
    root = None
    pairs = set()
    reasons = []
    try:
        for offset in range(0, len(data), _CHUNK_BYTES):
            parser.feed(data[offset:offset + _CHUNK_BYTES])
            for event, element in parser.read_events():
                if root is None:
                    root = element
                    if root.tag != 'robot':
                        raise SrdfError('malformed SRDF: the root element is <%s>, expected '
                                        '<robot>' % root.tag)
                if event == 'end' and element.getparent() is root:
                    if element.tag == 'disable_collisions':
                        _add_pair(element, pairs, reasons)
                    root.remove(element)
        parser.close()
    except (etree.XMLSyntaxError, ValueError) as error:
        raise SrdfError('malformed SRDF XML: %s' % error) from None
    if root is None:
        raise SrdfError('malformed SRDF XML: no element')
    return DisabledPairs(pairs=frozenset(pairs), reasons=tuple(reasons),
                         robot_name=root.get('name', ''))


def _add_pair(element, pairs: set, reasons: list) -> None:
    first, second = element.get('link1'), element.get('link2')
    if not first or not second:
        raise SrdfError('malformed SRDF: the <disable_collisions> on line %s needs both '
                        'link1 and link2' % element.sourceline)
    pair = link_pair(first, second)
    if pair in pairs:
        return  # written again (MoveIt's loader accepts repeats): counted once
    if len(pairs) >= MAX_SRDF_PAIRS:
        raise SrdfError('the SRDF disables more than %d link pairs (every pair of %d links); '
                        'no robot has that many' % (MAX_SRDF_PAIRS, _LINKS_OF_MOST_PAIRS))
    pairs.add(pair)
    reasons.append((first, second, element.get('reason', '')))
