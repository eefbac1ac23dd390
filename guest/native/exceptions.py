"""raise, assert and try/except/else/finally of the statement parser
(statements.StmtParser): native faults matched by kind, and in a function
with boxed values, exceptions as CPython's objects matched by CPython's own
`except` rules."""
import ast
import copy

from . import irbuilder as ir
from .errors import CompileError
from .excclasses import builtin_exception
from .scope import Flow
from .typemodel import BOOL, FLOAT, INT, OBJECT, STR

# Exceptions native code raises itself (module_abi.h SpineFaultKind): with one str message, or
# called with other arguments (their tuple's repr: codegen/raised.h), KeyError always so.
_NATIVE_RAISES = {"ZeroDivisionError": 2, "ValueError": 3, "IndexError": 5, "KeyError": 6, "RuntimeError": 7}
# What an `except` clause catches of the faults native code raises (SpineFaultKind bits;
# KeyError is 6). Any other exception is never raised natively (CPython runs the function).
_ALL_FAULTS = (1 << 2) | (1 << 3) | (1 << 5) | (1 << 6) | (1 << 7)
# Arguments of a raised class whose repr native code writes as CPython's, and whose str() is that
# repr (so str(e) of an exception called with one of them is known natively).
_ARGUMENT_TYPES = (INT, BOOL, FLOAT)


_KEY_ERROR = 1 << 6
_PYTHON_FAULT = 1 << 8  # a boxed operation's exception, set in the interpreter
_CAUGHT = {"ZeroDivisionError": 1 << 2, "ArithmeticError": 1 << 2, "ValueError": 1 << 3, "IndexError": 1 << 5,
           "KeyError": 1 << 6, "LookupError": (1 << 5) | (1 << 6), "RuntimeError": 1 << 7,
           "Exception": _ALL_FAULTS, "BaseException": _ALL_FAULTS}


class ExceptionStatements:
    """The exception statements of StmtParser (which provides nested, expr, exprs and scope)."""

    def visit_Raise(self, node, flow):
        """`raise C`, `raise C()` and `raise C(args)` of ValueError, IndexError, KeyError,
        RuntimeError, ZeroDivisionError and the program's exception classes (excclasses.py, each
        its own fault kind) are raised natively when every argument is an int, bool, float or
        str; so are `raise ... from None` (the loader raises every native fault so) and, in a
        handler, a bare `raise` and `raise e` of the exception it took. Any other raise goes back
        to CPython, which runs the (pure) function again and raises its own exception: the same
        type, message, cause and traceback (so does a bare raise outside a handler: CPython says
        nothing is active)."""
        caught = self.handler_taking(node.exc)
        if caught is not None:  # re-raise the caught exception itself, as CPython does
            name, taken = caught
            out = [ir.expr_stmt(ir.call_op("box_rethrow", [taken], BOOL) if taken is not None else
                                ir.call_op("raise_caught", [], BOOL))]
        else:
            out = [ir.expr_stmt((node.exc is not None and self.native_raise(node, flow)) or
                                ir.call_op("raise_in_python", [], BOOL))]
        flow.reachable = False
        return out

    def handler_taking(self, exc):
        """The innermost handler (name, its exception object or None for a native fault) when
        raising @p exc re-raises what it took: a bare raise, or its own `as` name."""
        if not self.handlers:
            return None
        name, taken = self.handlers[-1]
        if exc is None or (isinstance(exc, ast.Name) and name is not None and exc.id == name):
            return name, taken
        return None

    def native_raise(self, node, flow):
        exc = node.exc
        own = self.scope.module.exceptions
        call = exc if isinstance(exc, ast.Call) else None
        cls = (call.func if call is not None else exc)
        if (node.cause is not None and not (isinstance(node.cause, ast.Constant) and node.cause.value is None)) or \
                not isinstance(cls, ast.Name) or (cls.id not in _NATIVE_RAISES and cls.id not in own) or \
                not self.scope.module_name(cls.id) or \
                (call is not None and (call.keywords or any(isinstance(a, ast.Starred) for a in call.args))):
            return None
        try:
            args = [self.expr(a, flow) for a in (call.args if call is not None else [])]
        except CompileError:
            return None
        program = own.get(cls.id)
        kind = [ir.const_int(program.kind), ir.const_str(program.name)] if program is not None else \
            [ir.const_int(_NATIVE_RAISES[cls.id])]
        if program is not None and program.arity not in (None, len(args)):
            return None  # CPython's TypeError, raised by its __init__
        if len(args) == 1 and args[0].ty == STR and cls.id != "KeyError" and (program is None or program.arity is None):
            return ir.call_op("raise_text", kind + [args[0]], BOOL)
        if any(a.ty not in _ARGUMENT_TYPES + (STR,) for a in args) or (program is not None and not program.called):
            return None
        return ir.call_op("raise_called", kind + [self.argument_tuple(args)], BOOL)

    @staticmethod
    def argument_tuple(args):
        """The repr of the tuple of @p args, built natively: `()`, `(x,)`, `(x, y)`."""
        parts = ["("]
        for i, a in enumerate(args):
            parts += [", "] if i else []
            parts.append(ir.call_op("repr", [a], STR))
        parts.append(",)" if len(args) == 1 else ")")
        text = None
        for i, p in enumerate(parts):  # adjacent literals joined
            if isinstance(p, str) and i and isinstance(parts[i - 1], str):
                continue
            if isinstance(p, str):
                j = i
                while j + 1 < len(parts) and isinstance(parts[j + 1], str):
                    j += 1
                p = ir.const_str("".join(parts[i:j + 1]))
            text = p if text is None else ir.call_op("concat", [text, p], STR)
        return text

    def visit_Assert(self, node, flow):
        """A failing assert goes back to CPython, which raises AssertionError with its message."""
        self.exprs.flow = flow
        cond = self.exprs.condition(node.test)
        fail = ir.seq([ir.expr_stmt(ir.call_op("raise_in_python", [], BOOL))])
        return [ir.stmt("IfStmt", ir.fn("ast.PrimNot")(cond.node), fail, None)]

    def visit_Try(self, node, flow):
        """try/except/else/finally (`as e` with e used only as str(e), f"{e}" or a cause): a
        handler runs for the faults native code raises that CPython's except clause would take; faults it cannot name natively
        (OverflowError, TypeError, ...) are FALLBACK, never caught: the call then runs in
        CPython, whose handler takes them. In a function with boxed values handlers take
        exception objects instead (object_handlers). A handler starts from the state before the try.
        finally runs after the rest, and before any fault but FALLBACK goes on unwinding (a boxed
        operation's exception taken out of the interpreter meanwhile, codegen/boxed.h), and
        before a return (its value computed first), break or continue leaves the try; one of
        those in finally replaces what was pending, a fault included (rewriter_finally.cc)."""
        if not node.finalbody:
            return self.try_except(node, flow)
        before = flow.copy()
        guarded = self.try_except(node, flow) if node.handlers else [self.nested(node.body, flow)[0]]
        # final also runs on the fault path, where only what was assigned before the try is sure.
        final, final_flow = self.nested(node.finalbody, before)
        flow.assigned |= final_flow.assigned
        flow.reachable = flow.reachable and final_flow.reachable
        return [ir.stmt("FinallyStmt", ir.seq(guarded), final)]

    def try_except(self, node, flow):
        body, body_flow, done, else_body = self.try_body(node, flow)
        if self.scope.boxed:
            guarded = self.object_handlers(node, flow, body, body_flow)
        else:
            guarded = self.fault_handlers(node, flow, body, body_flow)
        if done is None:
            return [guarded]
        return [ir.stmt("AllocaVarStmt", done.node, ir.const_bool(False).node), guarded] + \
            ([ir.stmt("IfStmt", done.node, else_body, None)] if else_body is not None else [])

    def try_body(self, node, flow):
        """(the try block, its end, the flag saying it ran to its end, the else block) of @p node."""
        body, body_flow = self.nested(node.body, flow.copy())
        done = else_body = None
        if node.orelse:
            # else runs when the body ran to its end: a flag set there (return, break, continue
            # and faults skip it), tested after the handlers, so they never see else's faults.
            done = self.scope.temp("try_done", BOOL)
            body = ir.seq([body, ir.stmt("AssignStmt", done.node, ir.const_bool(True).node)])
            if body_flow.reachable:
                else_body, body_flow = self.nested(node.orelse, body_flow)
        return body, body_flow, done, else_body

    @staticmethod
    def join_ends(flow, ends):
        """@p flow after the try block or any handler ended at one of @p ends."""
        joined = ends[0]
        for end in ends[1:]:
            joined = Flow.join(joined, end)
        flow.assigned, flow.reachable = joined.assigned, joined.reachable

    def fault_handlers(self, node, flow, body, body_flow):
        """Handlers of the faults native code raises, each taken by its kind (SpineFaultKind)."""
        masks, handlers, ends = [], [], [body_flow]
        for h in node.handlers:
            # Native faults are no objects: `as e` is taken when e is unused (CPython unbinds it
            # after the handler, so it leaves no trace) or used only as str(e), repr(e),
            # type(e).__name__ or raised again.
            used = h.name is not None and h.name in self.scope.mentioned
            if used and h.name not in self.scope.message_names:
                raise CompileError(h, "ExceptAs", f"the exception object {h.name!r} is not available natively "
                                   "(only str(), repr(), type().__name__ and raise of it inside its handler)")
            mask = self.caught(h)
            body_ast, reads = caught_reads(h) if used else (h.body, {})
            taken = [c for c in self.scope.module.exceptions.values() if mask >> c.kind & 1]
            if h.name in reads and (mask & _KEY_ERROR or any(not c.str_is_message for c in taken)):
                raise CompileError(h, "ExceptAs", "str() of a KeyError is its key's repr, not known natively")
            handler, end = self.handler(h, body_ast, reads, flow.copy())
            ends.append(end)
            # A clause no native fault matches (mask 0) stays: a boxed operation's exception
            # reaching this try from a helper goes back to CPython, whose clause may match it.
            masks.append(ir.const_int(mask).node)
            handlers.append(handler)
        self.join_ends(flow, ends)
        return ir.stmt("TryStmt", body, masks, handlers) if handlers else body

    def object_handlers(self, node, flow, body, body_flow):
        """Handlers in a function with boxed values, whose exceptions are CPython's objects: any
        fault but FALLBACK (and a wrong argument type) is taken as its exception object (a boxed
        operation's, out of the interpreter; a native fault's, built as CPython raises it), tested
        with CPython's own `except` matching clause by clause, and set again to go on unwinding
        when none matches. `as e` binds that object, as in CPython."""
        caught = self.scope.temp("caught", OBJECT)
        chain, ends = ir.expr_stmt(ir.call_op("box_rethrow", [caught], BOOL)), [body_flow]
        for h in reversed(node.handlers):
            if h.name is not None and h.name in self.scope.mentioned and h.name not in self.scope.handler_names:
                raise CompileError(h, "ExceptAs", f"the exception {h.name!r} used outside its handler")
            self.handlers.append((h.name, caught))
            self.scope.comprehensions.append({h.name: caught} if h.name else {})
            try:
                handler, end = self.nested(h.body, flow.copy())
            finally:
                self.scope.comprehensions.pop()
                self.handlers.pop()
            ends.append(end)
            test = self.matches(h, caught)
            chain = handler if test is None else ir.stmt("IfStmt", test.node, handler, chain)
        self.join_ends(flow, ends)
        take = ir.stmt("AllocaVarStmt", caught.node, ir.call_op("box_caught", [], OBJECT).node)
        return ir.stmt("TryStmt", body, [ir.const_int(_ALL_FAULTS | _PYTHON_FAULT).node], [ir.seq([take, chain])])

    def matches(self, handler, caught):
        """CPython's test of except clause @p handler on exception @p caught; None if it takes all."""
        if handler.type is None:
            return None
        test = None
        for k in self.exception_names(handler):
            one = ir.call_op("box_exc_match", [caught, ir.const_str(k.id)], BOOL)
            test = one if test is None else ir.binary("PrimOr", test, one, BOOL)
        return test

    def exception_names(self, handler):
        """The class names of except clause @p handler: builtin exception classes, as CPython finds
        them, and (but where handlers take CPython's objects) the program's exception classes."""
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        own = {} if self.scope.boxed else self.scope.module.exceptions
        for k in kinds:
            if not isinstance(k, ast.Name) or not self.scope.module_name(k.id) or \
                    k.id in self.scope.module.classes or k.id in self.scope.signatures or \
                    (k.id not in own and (k.id in self.scope.module.exceptions or not builtin_exception(k.id))):
                what = "built-in exception names where boxed values raise" if self.scope.boxed else \
                    "built-in exception names and the program's exception classes"
                raise CompileError(k, "Except", f"except {ast.unparse(k)}: only {what}")
        return kinds

    def handler(self, h, body_ast, reads, flow):
        """The block of handler @p h (its statements @p body_ast), with the names @p reads binds
        (caught_reads) to what native code knows of the fault it took."""
        frame, prologue = {}, []
        for name, (op, classes) in reads.items():
            if op == "caught_is":  # isinstance(e, classes): its kind among those an except clause of them takes
                frame[name] = self.scope.temp("caught", BOOL)
                mask = self.caught(ast.copy_location(ast.ExceptHandler(type=classes, name=None, body=[]), classes))
                value = ir.call_op(op, [ir.const_int(mask)], BOOL)
            else:
                frame[name] = self.scope.temp("caught", STR)
                # str() and repr() of a class whose __init__ makes its args are CPython's: the kinds
                # of those (a handler reading them of one falls back when it takes one).
                made = sum(1 << c.kind for c in self.scope.module.exceptions.values() if c.arity is not None)
                value = ir.call_op(op, [] if op == "caught_type_name" else [ir.const_int(made)], STR)
            prologue.append(ir.stmt("AllocaVarStmt", frame[name].node, value.node))
        self.handlers.append((h.name, None))
        self.scope.comprehensions.append(frame)
        try:
            body, end = self.nested(body_ast, flow)
        finally:
            self.scope.comprehensions.pop()
            self.handlers.pop()
        return ir.seq(prologue + [body]), end

    def caught(self, handler):
        """The fault kinds except clause @p handler takes: native faults, and the program's
        exception classes that are (subclasses of) a class it names."""
        own = self.scope.module.exceptions.values()
        if handler.type is None:
            return _ALL_FAULTS | sum(1 << c.kind for c in own)
        mask = 0
        for k in self.exception_names(handler):
            mask |= _CAUGHT.get(k.id, 0) | sum(1 << c.kind for c in own if c.is_subclass_of(k.id))
        return mask


def caught_reads(h):
    """(the statements of handler @p h with repr(e), f"{e!r}", type(e).__name__ and
    isinstance(e, classes) of its name e each replaced by a name of its own, {name: (the op
    that reads it of the caught fault, the classes of isinstance)}): e itself stands for str(e)
    (compiler._message_names allows no other use)."""
    reads = {}

    class Reads(ast.NodeTransformer):
        def read(self, node, what, op, classes=None):
            reads[f"{h.name}.{what}"] = op, classes
            return ast.copy_location(ast.Name(id=f"{h.name}.{what}", ctx=ast.Load()), node)

        def visit_Call(self, node):
            if is_call_of(node, "repr", h.name):
                return self.read(node, "repr", "caught_repr")
            if isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2 and \
                    not node.keywords and isinstance(node.args[0], ast.Name) and node.args[0].id == h.name:
                return self.read(node, f"isinstance{len(reads)}", "caught_is", node.args[1])
            return self.generic_visit(node)

        def visit_Attribute(self, node):
            if node.attr == "__name__" and isinstance(node.value, ast.Call) and is_call_of(node.value, "type", h.name):
                return self.read(node, "type", "caught_type_name")
            return self.generic_visit(node)

        def visit_FormattedValue(self, node):
            if node.conversion == ord("r") and isinstance(node.value, ast.Name) and node.value.id == h.name:
                return ast.copy_location(ast.FormattedValue(value=self.read(node.value, "repr", "caught_repr"),
                                                            conversion=-1, format_spec=None), node)
            return self.generic_visit(node)

        def visit_Name(self, node):
            if node.id == h.name:
                reads[h.name] = "caught_message", None
            return node

        def visit_Raise(self, node):
            # `raise e` re-raises the fault itself (visit_Raise): no read of e; nor is a cause
            # one (a raise with a cause other than None is CPython's).
            if node.exc is not None and not (isinstance(node.exc, ast.Name) and node.exc.id == h.name):
                node.exc = self.visit(node.exc)
            return node

    body = [Reads().visit(s) for s in copy.deepcopy(h.body)]
    return body, reads


def is_call_of(node, function, name):
    """Is @p node `function(name)`?"""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function and \
        len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Name) and node.args[0].id == name
