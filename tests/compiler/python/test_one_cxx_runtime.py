"""One C++ runtime per process: libspine_runtime.so carries libstdc++ and
libsupc++ (cmake/cxx_runtime.cmake), and the loader, the compiler, their
extensions and every compiled module take the C++ runtime from it, never
from libstdc++.so.6. So a process that imports them (the zygote, the
compile service) maps no libstdc++.so.6 at all, the exception ABI is
defined in one library only, and a C++ exception thrown in a module or in
a library is caught where it was caught before: faults inside the module,
load errors in the extension that turns them into Python's."""
import json
import os
import subprocess

import spine_runtime
from native import simple_compile

GUEST = os.path.join(os.path.dirname(__file__), "..", "..", "..", "guest")

SOURCE = '''
from typing import List


def mean(values: List[float]) -> float:
    if not values:
        raise ValueError("mean of an empty list")
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def mean_or(values: List[float], default: float) -> float:
    try:
        return mean(values)
    except ValueError:
        return default
'''

# What the zygote and the compile service load (the loader, the compiler and
# their extensions), a module run natively, its faults, a load error, and what
# the process then maps.
CHILD = r'''
import json, sys
import spine_compiler, spine_loader, spine_runtime
from native.loader import module_loader
module = module_loader(sys.argv[1])
mean, mean_or = module.get_function("mean"), module.get_function("mean_or")
out = {"mean": mean([1.0, 2.0, 4.5]), "mean_or": [mean_or([], -1.0), mean_or([3.0, 5.0], -1.0)]}
try:
    mean([])
except ValueError as e:
    out["raised"] = ["ValueError", str(e)]
try:
    module_loader(sys.argv[1] + ".missing")
except RuntimeError as e:
    out["load_error"] = str(e)
maps = set()
with open("/proc/self/maps") as f:
    for line in f:
        if "/" in line:
            maps.add(line.split()[-1])
out["maps"] = sorted(maps)
print(json.dumps(out))
'''

SUFFIX = ".cpython-311-x86_64-linux-gnu.so"
# The exception ABI: whoever defines these holds a copy of the C++ exception runtime.
EXCEPTION_ABI = ("__cxa_throw", "__cxa_begin_catch", "__cxa_end_catch", "__gxx_personality_v0")


def _native(maps, module):
    """The toolchain's libraries and extensions, and @p module, among the files a process maps."""
    return [m for m in maps if os.path.basename(m).startswith(("libspine_", "spine_")) or m == module]


def _needed(path):
    out = subprocess.run(["readelf", "-dW", path], capture_output=True, text=True, check=True).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]


def _defines(path):
    """The exception ABI symbols @p path defines, exported or not (nm reads the full symbol table)."""
    out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    return sorted({line.split()[-1] for line in out.splitlines()
                   if len(line.split()) == 3 and line.split()[1] not in "Uw" and line.split()[-1] in EXCEPTION_ABI})


def _self_bound_by_lookup(path):
    """The functions @p path defines and still reaches through its PLT by a symbol lookup at load."""
    relocs = subprocess.run(["readelf", "-rW", path], capture_output=True, text=True, check=True).stdout
    called = {line.split()[4].split("@")[0] for line in relocs.splitlines() if "R_X86_64_JUMP_SLOT" in line}
    defined = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    return sorted(called & {line.split()[-1].split("@")[0] for line in defined.splitlines()})


def _run_child(module):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(spine_runtime.__file__)) + os.pathsep +
               os.path.abspath(GUEST))
    out = subprocess.run(["/usr/bin/python3", "-c", CHILD, module], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_process_running_modules_maps_one_cxx_runtime_and_catches_where_it_did(tmp_path):
    path = str(tmp_path / "mean.so")
    simple_compile(SOURCE, path)
    got = _run_child(path)
    assert got["mean"] == 2.5
    assert got["mean_or"] == [-1.0, 4.0]  # thrown and caught inside the module
    assert got["raised"] == ["ValueError", "mean of an empty list"]  # a module's fault, through the loader
    missing = path + ".missing"  # thrown in the loader library, caught by the runtime's call layer
    assert got["load_error"] == (f"runtime.ModuleLoader(): cannot load module '{missing}': {missing}: "
                                 "cannot open shared object file: No such file or directory")
    assert [m for m in got["maps"] if "libstdc++" in m] == []
    assert {os.path.basename(m) for m in _native(got["maps"], path)} == {
        "libspine_runtime.so", "libspine_loader.so", "libspine_compiler.so", "spine_runtime" + SUFFIX,
        "spine_loader" + SUFFIX, "spine_compiler" + SUFFIX, "mean.so"}


def test_only_the_runtime_library_holds_the_exception_runtime(tmp_path):
    path = str(tmp_path / "mean.so")
    simple_compile(SOURCE, path)
    got = _run_child(path)
    for dso in _native(got["maps"], path):
        assert "libstdc++.so.6" not in _needed(dso), dso
        expected = list(EXCEPTION_ABI) if os.path.basename(dso) == "libspine_runtime.so" else []
        assert _defines(dso) == sorted(expected), dso
    assert "libspine_runtime.so" in _needed(path)


def test_every_library_binds_its_own_functions_inside_itself(tmp_path):
    # A function reached by lookup is one more symbol the dynamic linker resolves in every
    # process that loads the library (cmake/cxx_runtime.cmake): only the allocation
    # functions, which a program may replace, stay interposable.
    path = str(tmp_path / "mean.so")
    simple_compile(SOURCE, path)
    got = _run_child(path)
    dsos = [m for m in _native(got["maps"], path) if m != path]
    assert len(dsos) == 6, dsos
    for dso in dsos:
        assert [f for f in _self_bound_by_lookup(dso) if not f.startswith(("_Znw", "_Zna", "_ZdlPv", "_ZdaPv"))] == [], dso
    assert _self_bound_by_lookup(next(m for m in dsos if m.endswith("libspine_runtime.so")))  # operator new/delete
