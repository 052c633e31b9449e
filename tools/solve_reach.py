# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Count the package modules reached by following imports from the module that defines solve().

Usage: ``python3 tools/solve_reach.py [PACKAGE_DIR]`` (default: ik_solvers/ik_solvers of this
checkout). Imports are read with ``ast`` (module level and inside functions); a ``from . import``
of a submodule counts that submodule, a package import its ``__init__.py``; the registry's
``_register('<module>', ...)`` lines count as imports of those modules. Parents' ``__init__``
files that Python also runs are not followed. The modules are printed in groups: the private
compiled core (``solvers/_core``), the heuristics' own files, the rest of ``solvers/``, and the
rest of the package.
"""

import ast
from pathlib import Path
import sys
from typing import Dict, Optional, Set

#: The heuristics' own files and their helpers (the points, hinges and reaching passes).
HEURISTIC_FILES = {'ccd', 'fabrik', 'jacobian_transpose', 'length_relaxation', 'hinge',
                   'point_chain', 'reaching'}


def module_path(root: Path, dotted: str) -> Optional[Path]:
    """Return the file of ``dotted`` (relative to the package root), or None."""
    base = root.joinpath(*dotted.split('.')) if dotted else root
    if base.with_suffix('.py').is_file():
        return base.with_suffix('.py')
    if (base / '__init__.py').is_file():
        return base / '__init__.py'
    return None


def dotted_of(root: Path, path: Path) -> str:
    """Return the dotted name of a file, relative to the package root."""
    parts = list(path.relative_to(root).with_suffix('').parts)
    if parts[-1] == '__init__':
        parts.pop()
    return '.'.join(parts)


def imports_of(root: Path, path: Path) -> Set[str]:
    """Return the package modules ``path`` imports, as dotted names relative to the root."""
    here = dotted_of(root, path).split('.') if dotted_of(root, path) else []
    package = here if path.name == '__init__.py' else here[:-1]
    found: Set[str] = set()
    tree = ast.parse(path.read_text(encoding='utf-8'))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            anchor = package[:len(package) - node.level + 1] if node.level > 1 else package
            base = '.'.join(anchor + (node.module.split('.') if node.module else []))
            for alias in node.names:
                sub = (base + '.' + alias.name) if base else alias.name
                if module_path(root, sub) is not None:
                    found.add(sub)
                elif module_path(root, base) is not None:
                    found.add(base)
        elif (isinstance(node, ast.Call) and getattr(node.func, 'id', '') == '_register'
              and node.args and isinstance(node.args[0], ast.Constant)):
            sub = '.'.join(package + [node.args[0].value])
            if module_path(root, sub) is not None:
                found.add(sub)
    return found


def reached(root: Path, start: str) -> Set[str]:
    """Return every package module reached from ``start`` (excluded)."""
    seen: Set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        path = module_path(root, name)
        for imported in imports_of(root, path):
            if imported not in seen and imported != start:
                seen.add(imported)
                todo.append(imported)
    return seen


def groups(modules: Set[str]) -> Dict[str, list]:
    """Split module names into the four groups this script reports."""
    out: Dict[str, list] = {'core': [], 'heuristics': [], 'solvers': [], 'elsewhere': []}
    for name in sorted(modules):
        parts = name.split('.')
        if parts[:2] == ['solvers', '_core']:
            out['core'].append(name)
        elif parts[0] == 'solvers' and len(parts) == 2 and parts[1] in HEURISTIC_FILES:
            out['heuristics'].append(name)
        elif parts[0] == 'solvers':
            out['solvers'].append(name)
        else:
            out['elsewhere'].append(name)
    return out


def main() -> None:
    """Print the modules reached from solvers/solve.py, by group, with their counts."""
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parents[1] / 'ik_solvers' / 'ik_solvers'
    found = groups(reached(root, 'solvers.solve'))
    for group, names in found.items():
        print('%-10s %2d  %s' % (group, len(names), ', '.join(names)))
    print('outside the core and the heuristics: %d (solvers/ only: %d)'
          % (len(found['solvers']) + len(found['elsewhere']), len(found['solvers'])))


if __name__ == '__main__':
    main()
