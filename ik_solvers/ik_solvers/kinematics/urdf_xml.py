# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
URDF text to an element tree, with attribute values as urdfdom sees them.

An XML parser turns every tab and line break inside an attribute value into a space; urdfdom's
XML library keeps them, and its number reader then refuses ``xyz="0 0<TAB>1"`` or a vector
broken over two lines. To refuse the same descriptions, values that hold such characters in
the text keep them here too. The common case (none do) takes the standard library's compiled
parser; only a description where one might is parsed a second, slower way.
"""

from html import unescape
import re
from typing import Any, Dict
import xml.etree.ElementTree as ElementTree
from xml.parsers import expat

__all__ = ['dismantle', 'feed_in_chunks', 'parse_xml']

# Bytes handed to the XML parser at a time: between two chunks other threads get the
# interpreter, so parsing a description of megabytes never stalls them for long.
_CHUNK_BYTES = 64 * 1024

# A quoted value holding a tab or a line break. Attribute values cannot hold '<', so a match
# never spans two tags; text and comments may match too, which only costs the slower parse.
_BLANK_IN_VALUE = re.compile(rb'=\s*(?:"[^"<]*[\t\n\r][^"<]*"|\'[^\'<]*[\t\n\r][^\'<]*\')')
# A start tag from its '<', and each of its attributes.
_START_TAG = re.compile(rb'<[^\s/>]+(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|\'[^\']*\'))*\s*/?>')
_ATTRIBUTE = re.compile(rb'([^\s=/>]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')


def feed_in_chunks(parser: Any, data: bytes) -> Any:
    """
    Parse a document with an incremental XML parser, a slice at a time.

    :param parser: An ``xml.etree.ElementTree.XMLParser`` or an ``lxml.etree.XMLParser``.
    :param data: The document.
    :returns: The root element, as ``parser.close()`` returns it.
    :raises Exception: What the parser raises on malformed XML.
    """
    for start in range(0, len(data), _CHUNK_BYTES):
        parser.feed(data[start:start + _CHUNK_BYTES])
    return parser.close()


def _qualified(name: str) -> str:
    # expat writes a namespaced name as 'uri}local'; ElementTree as '{uri}local'.
    return '{' + name if '}' in name else name


class _RawBlankParser:
    """An expat parse that restores the tabs and line breaks of attribute values."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._builder = ElementTree.TreeBuilder()
        # Namespace-aware, as the standard library's parser is.
        self._parser = expat.ParserCreate(namespace_separator='}')
        self._parser.StartElementHandler = self._start
        self._parser.EndElementHandler = lambda tag: self._builder.end(_qualified(tag))

    def _start(self, tag: str, attributes: Dict[str, str]) -> None:
        raw_tag = _START_TAG.match(self._data, self._parser.CurrentByteIndex)
        if raw_tag is not None:
            for raw in _ATTRIBUTE.finditer(raw_tag.group()):
                value = raw.group(2) if raw.group(2) is not None else raw.group(3)
                name = raw.group(1).decode('utf-8')
                if name in attributes and re.search(rb'[\t\n\r]', value):
                    attributes[name] = unescape(value.decode('utf-8'))
        qualified = {_qualified(name): value for name, value in attributes.items()}
        self._builder.start(_qualified(tag), qualified)

    def feed(self, chunk: bytes) -> None:
        self._parser.Parse(chunk, False)

    def close(self) -> ElementTree.Element:
        self._parser.Parse(b'', True)
        return self._builder.close()


def parse_xml(urdf_xml: str) -> ElementTree.Element:
    """
    Parse XML text in chunks, keeping the tabs and line breaks of attribute values.

    :param urdf_xml: The text.
    :returns: The root element.
    :raises ElementTree.ParseError: On malformed XML; the message names line and column.
    """
    data = urdf_xml.encode('utf-8')
    if _BLANK_IN_VALUE.search(data) is None:
        return feed_in_chunks(ElementTree.XMLParser(), data)
    try:
        return feed_in_chunks(_RawBlankParser(data), data)
    except expat.ExpatError as error:
        raise ElementTree.ParseError(str(error)) from None


def dismantle(root: Any) -> None:
    """
    Free a parsed document one top-level element at a time.

    Dropped at once, the tree of a description of megabytes is freed in one call that holds
    the interpreter lock for tens of milliseconds; element by element, other threads run in
    between.

    :param root: An ``xml.etree.ElementTree`` or ``lxml.etree`` element; emptied.
    """
    # Not ``while len(root)``: lxml counts the children one by one, which makes the loop
    # quadratic; removing the last child is constant time in both libraries.
    while True:
        try:
            del root[-1]
        except IndexError:
            return
