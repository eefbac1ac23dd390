"""simple_compile: Python function or source -> C++ AST -> C++ -> .so (seed 001)."""
import ast
import inspect
import os
import shutil
import subprocess
import tempfile
import textwrap

import spine_compiler

from . import irbuilder as ir
from .errors import CompileError
from .scope import Flow, FunctionScope
from .statements import StmtParser
from .typerules import annotation_type

# -O3 lets g++ unroll and inline the recursion of small functions; hidden
# visibility keeps every symbol but the exported registry local, and the
# initial-exec TLS model makes the recursion-depth counter a plain %fs access
# instead of a __tls_get_addr call per native frame (fib(27): 4.4 -> 0.4 ms).
# A dlopen'ed module takes a few bytes of glibc's static TLS surplus for it;
# when that runs out, loading fails and the function stays Python, saying so.
CXXFLAGS = ["-std=c++17", "-O3", "-shared", "-fPIC", "-fno-plt", "-fvisibility=hidden", "-ftls-model=initial-exec"]


def _signature(fdef):
    a = fdef.args
    if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults:
        raise CompileError(fdef, "Parameters", "only plain positional parameters without defaults are supported")
    if fdef.decorator_list:
        raise CompileError(fdef.decorator_list[0], "Decorator", "decorated functions are not supported")
    params = []
    for arg in a.args:
        if arg.annotation is None:
            raise CompileError(arg, "MissingAnnotation", f"parameter {arg.arg!r} needs a type annotation")
        params.append(annotation_type(arg.annotation, f"parameter {arg.arg!r}"))
    if fdef.returns is None:
        raise CompileError(fdef, "MissingAnnotation", f"{fdef.name}() needs a return annotation")
    return params, annotation_type(fdef.returns, f"return of {fdef.name}()")


def _lower_function(fdef, signatures):
    params, ret = signatures[fdef.name]
    scope = FunctionScope(fdef.name, signatures)
    flow = Flow(a.arg for a in fdef.args.args)
    pvars = [scope.define(a.arg, t) for a, t in zip(fdef.args.args, params)]
    parser = StmtParser(scope, ret)
    body, end = parser.block(fdef.body, flow)
    if end.reachable:
        raise CompileError(fdef, "MissingReturn", f"{fdef.name}() may end without returning a value")
    decls = [ir.fn("ast.AllocaVarStmt")(v.node, ir.zero(v.dtype).node) for v in scope.hoisted]
    return ir.fn("ast.PrimFunc")(fdef.name, [v.node for v in pvars], [], ir.fn("ast.SeqStmt")(decls + body),
                                 ir.fn("ast.PrimType")(ret))


def parse_module(source):
    """Lower every top-level function of @p source; returns the PrimFunc objects in order."""
    tree = ast.parse(textwrap.dedent(source))
    fdefs = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            fdefs.append(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue
        else:
            raise CompileError(node, type(node).__name__, "only function definitions may appear at top level")
    if not fdefs:
        raise CompileError(tree, "Module", "no function to compile")
    signatures = {}
    for f in fdefs:
        if f.name in signatures:
            raise CompileError(f, "Redefinition", f"function {f.name!r} defined twice")
        signatures[f.name] = _signature(f)
    return [_lower_function(f, signatures) for f in fdefs]


def _source_of(function_or_source):
    if isinstance(function_or_source, str):
        return function_or_source
    if inspect.isfunction(function_or_source):
        return textwrap.dedent(inspect.getsource(function_or_source))
    raise TypeError("simple_compile() takes a function or source text")


def to_cpp(function_or_source):
    """The C++ module source for a function or source text."""
    funcs = parse_module(_source_of(function_or_source))
    return ir.fn("rewriter.BuildFunctions")(funcs)


def compiler_command(cpp_path, so_path):
    cxx = os.environ.get("CXX") or shutil.which("g++") or "g++"
    includes = ["-I" + d for d in spine_compiler.include_path.split(":") if d]
    return [cxx, *CXXFLAGS, *includes, cpp_path, "-o", so_path]


def simple_compile(function_or_source, path):
    """Compile a typed function (or every function of a source text) into the
    shared object @p path; returns the compiled function names. The C++ is
    kept next to it as @p path + ".cc". Raises CompileError for unsupported
    code and RuntimeError if the C++ compiler fails."""
    funcs = parse_module(_source_of(function_or_source))
    cpp = ir.fn("rewriter.BuildFunctions")(funcs)
    names = [ir.fn("runtime.NodeGetAttr")(f, "name") for f in funcs]
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    with open(path + ".cc", "w") as f:
        f.write(cpp)
    # Build into a private name and rename: a reader never sees a half-written module.
    fd, tmp = tempfile.mkstemp(prefix=".spine-", suffix=".so", dir=directory)
    os.close(fd)
    try:
        r = subprocess.run(compiler_command(path + ".cc", tmp), capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"C++ compilation failed:\n{r.stderr}")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return names
