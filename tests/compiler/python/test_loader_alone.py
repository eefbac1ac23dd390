"""A process that only runs compiled modules (the sandbox's zygote) loads the
module loader without the compiler: hot.setup imports native.loader, which
brings spine_loader and libspine_loader.so, not spine_compiler nor
libspine_compiler.so, nor the runtime binding spine_runtime. The module it runs is compiled here, in this process,
as the compile service would."""
import json
import os
import subprocess

import pytest
import spine_loader
import spine_runtime
from native import simple_compile

GUEST = os.path.join(os.path.dirname(__file__), "..", "..", "..", "guest")

SOURCE = '''
from typing import Callable


def scaled(x: int, k: int) -> int:
    return x * k


def make_adder(n: int) -> Callable[[int], int]:
    return lambda x: x + n
'''

# What the zygote runs (bootstrap.native_setup -> hot.setup), then a call, then
# what the process holds: its modules and the libraries mapped into it.
CHILD = r'''
import json, sys, types
sys.modules["_spine"] = types.ModuleType("_spine")
import hot
hot.setup(sys.argv[1])
module = hot._loader.module_loader(sys.argv[2])
fn = module.get_function("scaled")
add = module.get_function("make_adder")(5)  # a closure factory, loaded without its Python version
libs = set()
with open("/proc/self/maps") as maps:
    for line in maps:
        name = line.split()[-1]
        if "libspine" in name:
            libs.add(name.rsplit("/", 1)[-1])
print(json.dumps({"result": fn(7, 6), "closure": [add(1), add.__qualname__], "names": module.function_names(),
                  "modules": sorted(m for m in ("spine_compiler", "spine_loader", "spine_runtime") if m in sys.modules),
                  "libs": sorted(libs)}))
'''


def test_the_loader_runs_a_module_without_loading_the_compiler(tmp_path):
    path = str(tmp_path / "scaled.so")
    simple_compile(SOURCE, path)
    # hot.setup takes the native package from <python_dir>/native: the frontend's
    # sources stand in for the toolchain's python/ (the extensions come by PYTHONPATH).
    python_dir = str(tmp_path / "toolchain")
    os.mkdir(python_dir)
    os.symlink(os.path.abspath(os.path.join(GUEST, "native")), os.path.join(python_dir, "native"))
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(spine_runtime.__file__)) + os.pathsep +
               os.path.abspath(GUEST))
    out = subprocess.run(["/usr/bin/python3", "-c", CHILD, python_dir, path], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["result"] == 42
    assert got["closure"] == [6, "make_adder.<locals>.<lambda>"]
    assert sorted(got["names"]) == ["make_adder__in__0closure0_lambda", "make_adder__in__0state", "scaled"]
    assert got["modules"] == ["spine_loader"]  # not the runtime binding either (native/loader.py)
    assert got["libs"] == ["libspine_loader.so", "libspine_runtime.so"]


def test_a_loaded_module_is_held_without_the_runtime_binding(tmp_path):
    path = str(tmp_path / "scaled.so")
    simple_compile(SOURCE, path)
    held = spine_loader.load(path)
    assert isinstance(held, spine_loader.LoadedModule) and held.path == path
    assert held.function_names() == list(spine_runtime.get_global("runtime.ModuleFunctionNames")(
        spine_runtime.get_global("runtime.ModuleLoader")(path)))
    scaled = spine_loader.native_call(held, "scaled")
    del held  # the function keeps the module loaded on its own
    assert scaled(6, 7) == 42
    with pytest.raises(RuntimeError, match=r"^runtime\.ModuleLoader\(\): cannot load module '/nonexistent\.so': "):
        spine_loader.load("/nonexistent.so")
    with pytest.raises(TypeError, match=r"^load\(path\): path must be str$"):
        spine_loader.load(b"/nonexistent.so")
    with pytest.raises(TypeError, match="cannot create 'spine_loader.LoadedModule' instances"):
        spine_loader.LoadedModule()
