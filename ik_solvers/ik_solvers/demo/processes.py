# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Starting installed ik_solvers executables as child processes, and always stopping them.

The demo runs the very programs a launch file would (``ik_node``, ``sim_executor``), found in
the install space through the ament index, with ``--ros-args`` like ``ros2 run`` passes them.
"""

from __future__ import annotations

import os
from pathlib import Path
import signal
import subprocess
import sys
from typing import Mapping, Optional, Sequence

from ament_index_python.packages import get_package_prefix, PackageNotFoundError

from ..exceptions import ProcessError

__all__ = ['ChildProcess', 'ProcessError', 'ProcessGroup', 'find_executable']

PACKAGE_NAME = 'ik_solvers'


def find_executable(name: str) -> Path:
    """
    Locate an executable of the ik_solvers package in the install space.

    :param name: console script name, e.g. ``ik_node``.
    :returns: its path under ``<prefix>/lib/ik_solvers/``.
    :raises ProcessError: the package is not in the ament index or the script is missing.
    """
    try:
        prefix = Path(get_package_prefix(PACKAGE_NAME))
    except PackageNotFoundError as error:
        raise ProcessError(
            'package %s is not installed; build it and source install/local_setup.bash'
            % PACKAGE_NAME) from error
    path = prefix / 'lib' / PACKAGE_NAME / name
    if not os.access(path, os.X_OK):
        raise ProcessError('%s is not installed at %s; rebuild the workspace' % (name, path))
    return path


class ChildProcess:
    """One running executable, its output going to a log file."""

    def __init__(
        self,
        name: str,
        *,
        parameters: Optional[Mapping[str, object]] = None,
        params_files: Sequence[Path] = (),
        log_path: Path,
    ) -> None:
        """
        Start ``name`` with ``--ros-args``.

        :param name: console script of the ik_solvers package.
        :param parameters: ``-p name:=value`` pairs; booleans become ``true``/``false``.
        :param params_files: YAML parameter files, applied before ``parameters``.
        :param log_path: file receiving stdout and stderr (created or truncated).
        :raises ProcessError: the executable is not installed.
        """
        self.name = name
        self.log_path = log_path
        arguments = [str(find_executable(name)), '--ros-args']
        for params_file in params_files:
            arguments += ['--params-file', str(params_file)]
        for key, value in (parameters or {}).items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            arguments += ['-p', '%s:=%s' % (key, text)]
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(log_path, 'w', encoding='utf-8')
        environment = dict(os.environ, PYTHONUNBUFFERED='1')
        # The console script's shebang names the interpreter it was installed with; running it
        # through this one keeps the demo's environment whatever PATH says.
        self._process = subprocess.Popen(
            [sys.executable] + arguments, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, env=environment)

    @property
    def pid(self) -> int:
        """Process id of the child."""
        return self._process.pid

    def check_alive(self) -> None:
        """
        Raise if the child has exited.

        :raises ProcessError: with the tail of its log.
        """
        code = self._process.poll()
        if code is not None:
            raise ProcessError('%s exited with code %d; last lines of %s:\n%s' % (
                self.name, code, self.log_path, self.log_tail()))

    def log_tail(self, lines: int = 15) -> str:
        """Return the last lines the child printed."""
        self._log.flush()
        try:
            text = self.log_path.read_text(encoding='utf-8', errors='replace')
        except OSError:
            return ''
        return '\n'.join(text.splitlines()[-lines:])

    def stop(self, *, timeout: float = 5.0) -> None:
        """Interrupt the child like Ctrl-C, then terminate, then kill; never raises."""
        try:
            if self._process.poll() is None:
                for send, wait in ((lambda: self._process.send_signal(signal.SIGINT), timeout),
                                   (self._process.terminate, 2.0),
                                   (self._process.kill, 2.0)):
                    send()
                    try:
                        self._process.wait(timeout=wait)
                        break
                    except subprocess.TimeoutExpired:
                        continue
        finally:
            self._log.close()


class ProcessGroup:
    """
    Children started inside a ``with`` block, all stopped when it ends, whatever happened.

    Example: ``with ProcessGroup() as group: node = group.start('ik_node', log_path=...)``.
    """

    def __init__(self) -> None:
        """Create an empty group."""
        self._children: list[ChildProcess] = []

    def start(self, name: str, **options) -> ChildProcess:
        """
        Start a child (see :class:`ChildProcess` for ``options``) and keep it for stopping.

        :raises ProcessError: the executable is not installed.
        """
        child = ChildProcess(name, **options)
        self._children.append(child)
        return child

    def check_alive(self) -> None:
        """
        Raise if any child has exited.

        :raises ProcessError: naming the child, with the tail of its log.
        """
        for child in self._children:
            child.check_alive()

    def __enter__(self) -> 'ProcessGroup':
        return self

    def __exit__(self, *exception_info) -> None:
        while self._children:
            self._children.pop().stop()
