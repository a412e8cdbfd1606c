"""The public API is typed: every public function, method and result field is annotated, and the
strictly typed user script (checked by ``make typecheck``) runs and returns the types it states."""

import importlib.util
import inspect
import pathlib
import sys
import typing

import pytest

import collide2d as c2

TOUR = pathlib.Path(__file__).parents[1] / "typing" / "readme_tour.py"


def _public_callables():
    for name in c2.__all__:
        value = getattr(c2, name)
        if inspect.isclass(value):
            for attr, member in vars(value).items():
                if attr.startswith("_") and attr != "__init__":
                    continue
                if isinstance(member, (classmethod, staticmethod)):
                    yield f"{name}.{attr}", member.__func__
                elif isinstance(member, property):
                    yield f"{name}.{attr}", member.fget
                elif inspect.isfunction(member):
                    yield f"{name}.{attr}", member
        elif callable(value):
            yield name, value


@pytest.mark.parametrize(("name", "function"), list(_public_callables()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_callables_are_fully_annotated(name, function):
    signature = inspect.signature(function)
    missing = [p.name for p in signature.parameters.values() if p.name not in ("self", "cls") and p.annotation is p.empty]
    assert missing == [], f"{name}: parameters without annotation: {missing}"
    assert signature.return_annotation is not signature.empty, f"{name}: no return annotation"


def test_every_public_class_has_a_method_checked():
    checked = {name.split(".")[0] for name, _ in _public_callables()}
    classes = {name for name in c2.__all__ if inspect.isclass(getattr(c2, name))}
    named_tuples = {name for name in classes if issubclass(getattr(c2, name), tuple)}
    enums = {"Relation"}
    assert classes - named_tuples - enums <= checked


@pytest.mark.parametrize("name", ["Contact", "Manifold", "PairMeasures", "PerramWertheim"])
def test_result_fields_are_annotated(name):
    result = getattr(c2, name)
    assert set(typing.get_type_hints(result)) == set(result._fields)


def test_shape_classes_are_generic_in_their_count():
    from collide2d.typing import Batch, Single

    for name in ("Point", "Segment", "Line", "Circle", "Ellipse", "Polygon", "Box", "RotatedBox"):
        cls = getattr(c2, name)
        assert typing.get_origin(cls[Single]) is cls and typing.get_args(cls[Batch]) == (Batch,)


def test_typed_tour_runs_with_the_types_it_states():
    if sys.version_info < (3, 11):  # the script's assert_type comes from typing_extensions there
        pytest.importorskip("typing_extensions")
    spec = importlib.util.spec_from_file_location("readme_tour", TOUR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main()


@pytest.mark.parametrize("name", ["Contact", "Manifold", "Impact", "RayHit", "PerramWertheim"])
def test_result_types_take_their_count_parameter_at_run_time(name):
    # Contact[float] and the like are for type checkers; at run time they are the class itself, so
    # that annotations evaluated at run time (a dataclass field, pydantic) work
    result = getattr(c2, name)
    assert result[float] is result and result[typing.Any] is result
    assert set(typing.get_type_hints(result)) == set(result._fields)
