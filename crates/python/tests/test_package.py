"""The package itself: the abi3 floor declared once, stubs for every public name."""

import ast
import re
import sys
from pathlib import Path

import levelgen
import levelgen._levelgen as ext

PKG = Path(__file__).resolve().parents[1]


def test_the_python_floor_is_declared_the_same_in_pyproject_and_cargo():
    """pip refuses the wheel below `requires-python`; the abi3 feature sets the oldest C API
    the extension uses (and the wheel's `cp3X-abi3` tag): the two must name one version."""
    pyproject = (PKG / "pyproject.toml").read_text()
    cargo = (PKG / "Cargo.toml").read_text()
    (floor,) = re.findall(r'requires-python\s*=\s*">=3\.(\d+)"', pyproject)
    (abi3,) = re.findall(r'"abi3-py3(\d+)"', cargo)
    assert floor == abi3
    assert sys.version_info >= (3, int(floor))


def test_the_extension_is_an_abi3_module():
    """One build serves every CPython from the floor on: the module is named `*.abi3.so`
    (not `*.cpython-3XX-*.so`, which only one Python version loads)."""
    name = Path(ext.__file__).name
    if sys.platform.startswith(("linux", "darwin")):
        assert name.endswith(".abi3.so"), name


def _stubbed(path: Path):
    tree = ast.parse(path.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_every_name_of_the_extension_has_a_stub_and_every_stub_a_name():
    public = {n for n in dir(ext) if not n.startswith("__") or n == "__version__"}
    stubbed = _stubbed(PKG / "python/levelgen/_levelgen.pyi") - {"_Evaluation", "__all__"}
    assert public == stubbed


def test_every_public_name_is_documented_and_typed():
    import inspect

    import levelgen.pcg
    import levelgen.ray

    for module in (levelgen, levelgen.pcg, levelgen.ray):
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj):
                continue
            assert inspect.getdoc(obj), f"{module.__name__}.{name} has no docstring"
            if inspect.isfunction(obj):
                sig = inspect.signature(obj)
                assert sig.return_annotation is not inspect.Signature.empty, f"{module.__name__}.{name}"
    assert (PKG / "python/levelgen/py.typed").exists()


def test_the_package_sources_parse_as_the_floor_version():
    """Only CPython 3.11 runs the tests here: at least the package's syntax is checked
    against the floor's grammar (no `match`, no parenthesised context managers, ...)."""
    floor = int(re.findall(r'requires-python\s*=\s*">=3\.(\d+)"', (PKG / "pyproject.toml").read_text())[0])
    for path in sorted((PKG / "python/levelgen").glob("*.py")):
        ast.parse(path.read_text(), filename=str(path), feature_version=(3, floor))


def test_the_stubs_match_the_runtime(root):
    """mypy's stubtest: every public name of the package and of the extension has a stub
    whose signature matches what Python sees at runtime (and the package type-checks)."""
    import subprocess

    pytest = __import__("pytest")
    pytest.importorskip("mypy", reason="mypy is not installed: stubtest is skipped")
    proc = subprocess.run([sys.executable, "-m", "mypy.stubtest", "levelgen"], cwd=root,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
