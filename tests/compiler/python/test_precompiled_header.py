"""The precompiled codegen header (native.compiler.precompile_header /
use_precompiled): modules compile with it while it matches the headers, and
never with a copy older than a header."""
import shutil
import subprocess
from pathlib import Path

import spine_compiler

from native import compiler, module_loader

ROOT = Path(__file__).resolve().parents[3]
SOURCE = "def triple(x: int) -> int:\n    return 3 * x\n"


def _compile(tmp_path, name):
    cc, so = tmp_path / f"{name}.cc", tmp_path / f"{name}.so"
    cc.write_text(compiler.to_cpp(SOURCE))
    # -H lists the headers read, and a precompiled one with "!" in front.
    return subprocess.run(compiler.compiler_command(str(cc), str(so)) + ["-H"], capture_output=True, text=True), so


def test_precompiled_header_used_only_while_it_matches(tmp_path, monkeypatch):
    include, pch = tmp_path / "include", tmp_path / "pch"
    for part in ("runtime/include", "runtime/compiler/include"):  # as the toolchain installs them
        shutil.copytree(ROOT / part, include, dirs_exist_ok=True)
    monkeypatch.setattr(spine_compiler, "include_path", str(include))
    monkeypatch.setattr(compiler, "_precompiled", [])
    compiler.precompile_header(str(include), str(pch))
    assert compiler.use_precompiled(str(include), str(pch))
    run, so = _compile(tmp_path, "with")
    assert run.returncode == 0, run.stderr
    assert "! " + str(pch / compiler.SUPPORT_HEADER) + ".gch" in run.stderr
    assert module_loader(str(so)).get_function("triple")(-14) == -42

    header = include / compiler.SUPPORT_HEADER
    header.write_text(header.read_text() + '\n#error "the header changed after the build"\n')
    assert not compiler.use_precompiled(str(include), str(pch))
    run, _ = _compile(tmp_path, "stale")
    assert run.returncode != 0 and "the header changed after the build" in run.stderr
