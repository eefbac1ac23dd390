"""The sandbox's import policy (guest/sandbox_policy.py) on its own.

The real sandbox child imports every allowed module and is refused every
refused one in host/sandbox_stdlib_test.go; here the policy's own rules.
"""
import json
import os
import subprocess
import sys

import pytest

import sandbox_policy

GUEST = os.path.join(os.path.dirname(__file__), "..", "..", "guest")


@pytest.mark.parametrize("name", sorted(sandbox_policy.REFUSED))
def test_every_refused_module_is_refused_with_its_reason(name):
    with pytest.raises(ImportError) as caught:
        sandbox_policy.Blocker.find_spec(name)
    assert caught.value.name == name
    assert str(caught.value) == (f"module {name!r} is not available in the sandbox: "
                                 f"{sandbox_policy.REFUSED[name]}")


@pytest.mark.parametrize("name", sorted(sandbox_policy.REFUSED))
def test_a_submodule_of_a_refused_module_is_refused(name):
    assert sandbox_policy.refusal(name + ".sub") == sandbox_policy.REFUSED[name]


@pytest.mark.parametrize("name", ["http", "urllib", "urllib.parse", "dbm", "dbm.dumb", "socketserverx",
                                  "threading", "_thread", "concurrent.futures", "pathlib", "gc",
                                  "tempfile", "importlib", "pickle", "inspect", "asyncio", "selectorsx"])
def test_modules_beside_refused_ones_are_allowed(name):
    assert sandbox_policy.refusal(name) is None
    assert sandbox_policy.Blocker.find_spec(name) is None


def test_every_reason_is_a_sentence_and_no_module_is_also_preloaded():
    for name, reason in sandbox_policy.REFUSED.items():
        assert reason and reason == reason.strip(), name
    assert not [name for name in sandbox_policy.PRELOAD if sandbox_policy.refusal(name)]
    assert [name for name in sandbox_policy.NOT_PRELOADED if not sandbox_policy.refusal(name)] == []


def _prepared_interpreter(code):
    """Run `code` in a fresh interpreter after prepare(), as the zygote does."""
    script = f"import sys\nsys.path.insert(0, {GUEST!r})\nimport sandbox_policy\nsandbox_policy.prepare()\n{code}"
    out = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_prepare_loads_the_preloads_and_leaves_no_refused_module_in_sys_modules():
    got = _prepared_interpreter(
        "import json\n"
        "print(json.dumps({'missing': [n for n in sandbox_policy.PRELOAD if n not in sys.modules],\n"
        "                  'refused_loaded': sorted(n for n in sys.modules if sandbox_policy.refusal(n)),\n"
        "                  'first_finder': sys.meta_path[0] is sandbox_policy.Blocker}))")
    assert got == {"missing": [], "refused_loaded": [], "first_finder": True}


def test_after_prepare_importing_a_module_a_preload_used_is_still_refused():
    # email.utils imported socket while the zygote preloaded it.
    got = _prepared_interpreter(
        "import json, email.utils\n"
        "try:\n    import socket\n    print(json.dumps('imported'))\n"
        "except ImportError as e:\n    print(json.dumps([e.name, str(e)]))")
    assert got == ["socket", "module 'socket' is not available in the sandbox: creates sockets"]


def test_prepare_keeps_ssl_out_of_the_process_and_asyncio_loads_without_it():
    # asyncio imports ssl if it can; nothing preloaded needs it, and every
    # page it would hold is one more for each fork of the zygote to copy.
    got = _prepared_interpreter(
        "import json, asyncio.sslproto\n"
        "maps = open('/proc/self/maps').read()\n"
        "print(json.dumps({'ssl_mapped': 'libssl' in maps or '/_ssl.' in maps,\n"
        "                  'asyncio_ssl': repr(asyncio.sslproto.ssl),\n"
        "                  'kept_out_finder_left': sandbox_policy.KeptOutOfPreloads in sys.meta_path}))")
    assert got == {"ssl_mapped": False, "asyncio_ssl": "None", "kept_out_finder_left": False}
