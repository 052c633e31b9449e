# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A request goes one way through the engine: no callbacks handed down, no pass-through layer."""

import importlib
import inspect
from pathlib import Path
import pkgutil
import typing

import ik_solvers.engine
from ik_solvers.engine.pipeline import IKEngine

ENGINE = Path(ik_solvers.engine.__file__).parent
#: Parameter names that would hand the engine a way to publish.
SENDING = {'send', 'send_path', 'publish', 'sink'}


def _engine_functions():
    for info in pkgutil.walk_packages([str(ENGINE)], 'ik_solvers.engine.'):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module):
            if getattr(value, '__module__', None) != module.__name__:
                continue
            if inspect.isfunction(value):
                yield info.name, value
            elif inspect.isclass(value):
                for _, method in inspect.getmembers(value, inspect.isfunction):
                    yield info.name, method


def test_no_engine_function_is_handed_a_way_to_publish_or_an_untyped_engine():
    offending = []
    for module, function in _engine_functions():
        for name, parameter in inspect.signature(function).parameters.items():
            if name in SENDING:
                offending.append('%s.%s(%s)' % (module, function.__qualname__, name))
            if name == 'engine' and parameter.annotation in (typing.Any, 'Any'):
                offending.append('%s.%s(engine: Any)' % (module, function.__qualname__))
    assert not offending, offending


def test_the_engine_offers_its_requests_and_its_robot_state_no_pass_through():
    public = {name for name, _ in inspect.getmembers(IKEngine) if not name.startswith('_')}
    assert public == {'handle', 'handle_path', 'handle_tree'}
    engine = IKEngine()
    assert {'robot', 'timing'} <= set(vars(engine))


def test_the_mailboxes_and_threads_live_with_the_node():
    for name in ('stop_signals', 'request_pool', 'ordered_queue'):
        assert not (ENGINE / ('%s.py' % name)).exists(), name
        assert (ENGINE.parent / 'ros' / ('%s.py' % name)).is_file(), name
