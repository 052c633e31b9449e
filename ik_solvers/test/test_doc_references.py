# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Every cross-reference in docstrings and docs/ names something that exists.

The roles checked are ``:mod:``, ``:class:``, ``:func:``, ``:meth:``, ``:attr:``, ``:data:``
and ``:exc:``. The sources are read, not imported, so modules whose ROS dependencies are missing here
(launch, interactive_markers) are checked too. A reference resolves as a reader would
resolve it: absolute; relative to the module it is written in (leading dots as in an
import); below the module or one of its enclosing packages; or, for a bare name written in
a module that defines classes, as a member of one of them. A name a module imports counts
as defined there, and is followed to where it is defined.
"""

import ast
from pathlib import Path
import re
from typing import Dict, Iterator, Optional, Set, Tuple

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
ROOT = PACKAGE_ROOT.parent
PACKAGES = ('ik_solvers', 'ik_solvers_benchmarks')
ROLE = re.compile(r':(mod|class|func|meth|attr|data|exc):`([^`]+)`')


class _Module:
    """What one source file defines: top-level names, imports and class members."""

    def __init__(self, name: str, path: Path, is_package: bool):
        self.name = name
        self.is_package = is_package
        self.text = path.read_text(encoding='utf-8')
        tree = ast.parse(self.text)
        self.names: Set[str] = set()
        self.imports: Dict[str, str] = {}
        self.classes: Dict[str, Set[str]] = {}
        for node in tree.body:
            self._top_level(node)

    def _top_level(self, node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            self.names.add(node.name)
            self.classes[node.name] = _members(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            self.names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            source = self._absolute(node.module or '', node.level)
            for alias in node.names:
                self.imports[alias.asname or alias.name] = '%s.%s' % (source, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                self.imports[alias.asname or alias.name.split('.')[0]] = (
                    alias.name if alias.asname else alias.name.split('.')[0])
        elif isinstance(node, (ast.If, ast.Try)):
            for child in ast.iter_child_nodes(node):
                self._top_level(child)

    def _absolute(self, module: str, level: int) -> str:
        if not level:
            return module
        parts = self.name.split('.')
        base = parts if self.is_package else parts[:-1]
        base = base[:len(base) - (level - 1)]
        return '.'.join(base + ([module] if module else []))


def _members(node: ast.ClassDef) -> Set[str]:
    """Methods, class attributes, annotated fields, nested classes and ``self.x`` of a class."""
    members: Set[str] = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            members.add(item.name)
        elif isinstance(item, ast.Assign):
            members.update(t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            members.add(item.target.id)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) and \
                isinstance(sub.value, ast.Name) and sub.value.id == 'self':
            members.add(sub.attr)
    return members


def _index() -> Dict[str, _Module]:
    modules = {}
    for package in PACKAGES:
        for path in sorted((PACKAGE_ROOT / package).rglob('*.py')):
            parts = list(path.relative_to(PACKAGE_ROOT).with_suffix('').parts)
            is_package = parts[-1] == '__init__'
            if is_package:
                parts = parts[:-1]
            modules['.'.join(parts)] = _Module('.'.join(parts), path, is_package)
    return modules


MODULES = _index()


def _exists(name: str, depth: int = 0) -> bool:
    """Whether a dotted name is a module, or an object or member defined in one."""
    if name in MODULES:
        return True
    parts = name.split('.')
    for cut in range(len(parts) - 1, 0, -1):
        module = MODULES.get('.'.join(parts[:cut]))
        if module is not None:
            return _in_module(module, parts[cut:], depth)
    # Outside the project (numpy, rclpy, the standard library): not this test's business.
    return parts[0] not in PACKAGES


def _in_module(module: _Module, rest, depth: int) -> bool:
    head, tail = rest[0], rest[1:]
    if head in module.imports and depth < 8:
        return _exists('.'.join([module.imports[head]] + tail), depth + 1)
    if head in module.classes:
        return not tail or (len(tail) >= 1 and tail[0] in module.classes[head])
    return head in module.names and len(tail) <= 1


def _resolves(target: str, context: Optional[_Module]) -> bool:
    target = target.split('<')[-1].rstrip('>').strip().lstrip('~').rstrip('()')
    if context is None:
        return _exists(target)
    if target.startswith('.'):
        level = len(target) - len(target.lstrip('.'))
        return _exists(context._absolute(target.lstrip('.'), level))
    candidates = [target]
    parts = context.name.split('.')
    candidates += ['.'.join(parts[:cut] + [target]) for cut in range(len(parts), 0, -1)]
    candidates += ['%s.%s.%s' % (context.name, cls, target) for cls in context.classes]
    return any(_exists(name) for name in candidates if name.split('.')[0] in PACKAGES) or (
        target.split('.')[0] not in PACKAGES and '.' in target and _exists(target))


def _references() -> Iterator[Tuple[str, str, str, Optional[_Module]]]:
    for name, module in MODULES.items():
        for match in ROLE.finditer(module.text):
            yield name, match.group(1), match.group(2), module
    for path in [ROOT / 'README.md'] + sorted((ROOT / 'docs').glob('*.md')):
        for match in ROLE.finditer(path.read_text(encoding='utf-8')):
            yield path.name, match.group(1), match.group(2), None


REFERENCES = list(_references())


def test_there_are_references_to_check():
    assert len(REFERENCES) > 100


@pytest.mark.parametrize('where', sorted({where for where, *_ in REFERENCES}))
def test_every_reference_resolves(where):
    broken = ['%s:`%s`' % (kind, target) for place, kind, target, context in REFERENCES
              if place == where and not _resolves(target, context)]
    assert not broken, '%s names what does not exist: %s' % (where, ', '.join(broken))


def test_a_missing_module_is_caught():
    context = MODULES['ik_solvers.solvers.solve']
    assert _resolves('.status', context)
    assert not _resolves('ik_solvers.solvers.finisher', context)
    assert not _resolves('.inputs', MODULES['ik_solvers.engine.pipeline'])
