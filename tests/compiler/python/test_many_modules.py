"""A process loads any number of native modules at once. A module keeps no TLS
of its own (the per-thread state of native code is the runtime library's,
spine/runtime/native_thread.h): each dlopen'ed module with a thread_local took
a slice of glibc's static TLS surplus, and after about a hundred the next one
failed to load, for good in a long-lived process."""
import os
import shutil
import subprocess

from native import module_loader, simple_compile

SOURCE = '''
def depth(n: int) -> int:
    if n == 0:
        return 0
    return 1 + depth(n - 1)
'''
COPIES = 400


def test_four_hundred_modules_load_and_run_at_once(tmp_path):
    first = str(tmp_path / "m0.so")
    simple_compile(SOURCE, first)
    # Copies are distinct objects to the dynamic linker (another file, another inode).
    paths = [first] + [shutil.copyfile(first, str(tmp_path / f"m{i}.so")) for i in range(1, COPIES)]
    functions = [module_loader(p).get_function("depth") for p in paths]
    assert [f(i % 50) for i, f in enumerate(functions)] == [i % 50 for i in range(COPIES)]


def test_modules_have_no_tls_of_their_own(tmp_path):
    path = str(tmp_path / "m.so")
    simple_compile(SOURCE, path)
    headers = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True, check=True).stdout
    assert " TLS " not in headers
    needed = subprocess.run(["readelf", "-dW", path], capture_output=True, text=True, check=True).stdout
    assert "[libspine_runtime.so]" in needed


def test_native_recursion_past_the_depth_limit_still_falls_back(tmp_path):
    """The depth counter moved into the runtime library: deep recursion still goes back
    to CPython (NativeFallback without a Python version) instead of overflowing the stack."""
    import pytest
    from native import NativeFallback
    path = str(tmp_path / "deep.so")
    simple_compile(SOURCE, path)
    f = module_loader(path).get_function("depth")
    assert f(700) == 700
    with pytest.raises(NativeFallback):
        f(5000)
    assert f(10) == 10  # the counter came back down
