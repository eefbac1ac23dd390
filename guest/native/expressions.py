"""Expression family, core: constants, names, operators, comparisons,
boolean operators, conditional expressions and f-strings. The other
families (containers.py, calls.py, comprehensions.py) are mixed into one
ExprParser in exprparser.py. Anything not handled is rejected with its
position and construct name."""
import ast

from . import boxed
from . import inheritance
from . import irbuilder as ir
from . import formatting
from . import optional
from . import protocols
from .calls import SET_ALGEBRA
from .errors import CompileError
from .irbuilder import E
from .modulenames import MATH_CONSTANTS, value_node
from .tuplesearch import tuple_contains
from .typemodel import BOOL, FLOAT, INT, OBJECT, STR, fresh_borrowed, list_of, set_of
from .typerules import arith

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1

_BINOPS = {ast.Add: "PrimAdd", ast.Sub: "PrimSub", ast.Mult: "PrimMul", ast.Div: "PrimDiv",
           ast.FloorDiv: "PrimFloorDiv", ast.Mod: "PrimFloorMod"}
# int operators computed by codegen/pymath.h: & | ^ of two bools is a bool, as in Python.
_BITOPS = {ast.BitAnd: "bit_and", ast.BitOr: "bit_or", ast.BitXor: "bit_xor", ast.LShift: "lshift",
           ast.RShift: "rshift"}
_CMPOPS = {ast.Eq: "PrimEQ", ast.NotEq: "PrimNE", ast.Lt: "PrimLT", ast.LtE: "PrimLE",
           ast.Gt: "PrimGT", ast.GtE: "PrimGE", ast.Is: "PrimEQ", ast.IsNot: "PrimNE"}


# + and * concatenate and repeat these (tuple[T, ...] with tuple[T, ...] only, as Python).
_SEQUENCES = ("str", "list", "vtuple")


class CoreExprs:
    """Lowers one expression at a time; ``flow`` is the definite-assignment state at that point."""

    def __init__(self, scope):
        self.scope = scope
        self.flow = None

    def parse(self, node, flow, expected=None, allow_pending=False):
        self.flow = flow
        return self.value(node, expected, allow_pending, keep_optional=allow_pending)

    def visit(self, node, expected=None):
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise CompileError(node, type(node).__name__)
        return method(node, expected)

    def value(self, node, expected=None, allow_pending=False, keep_optional=False):
        """An expression used as a value (not a None-returning call; an untyped empty literal
        or None only where @p allow_pending says it is bound to a name). A T where @p expected
        is Optional[T] becomes one; an Optional where something else is expected is read as
        its value (optional.py) unless @p keep_optional."""
        if isinstance(node, ast.Name) and node.id in self.scope.pending and expected is not None and \
                expected.kind == self.scope.pending[node.id].name:
            self.scope.knowledge.pin(node.id, expected)  # its first use says its type
        e = boxed.coerce(node, optional.coerce(self.visit(node, expected), expected), expected)
        if e.ty.kind == "optional" and not keep_optional and e.ty != expected:
            e = optional.value_of(e)
        if optional.is_none_literal(e) and not allow_pending:
            raise CompileError(node, "NoneValue", "None here needs an Optional type: annotate what it is "
                               "assigned to (x: Optional[int] = None)")
        if e.ty.kind == "none":
            raise CompileError(node, "NoneValue", "this call returns None; it cannot be used as a value")
        if e.ty.kind == "pending" and not allow_pending:
            raise CompileError(node, "EmptyLiteral", "the element types of this empty literal are not known; "
                               "annotate the variable it is assigned to")
        return inheritance.coerce(self.scope.module.classes, e, expected)  # a subclass where its base is wanted

    def bind_first(self, first, build):
        """build(first') where first' is @p first or a temporary holding it, so that
        @p first is evaluated before anything build() adds (Python's order)."""
        if first.pure:
            return build(first)
        t = self.scope.temp("ord", first.ty)
        return ir.let(t, first, build(ir.E(t.node, t.ty, True, first.borrowed)))

    def writes_back(self, receiver):
        """May the list, dict or set @p receiver (an expression node) be changed in place although it
        is an argument? Only such a parameter of immutable elements, named directly: the
        caller's object gets its contents back after the call (compiler.py)."""
        return isinstance(receiver, ast.Name) and receiver.id in self.scope.writable and \
            not any(receiver.id in frame for frame in self.scope.comprehensions)

    def no_borrowed_store(self, node, e, what):
        """Refuse to keep @p e (an argument's mutable object) inside something else."""
        if e.borrowed:
            raise CompileError(node, "BorrowedStore",
                               f"{what} would keep a mutable argument; native code works on a copy of it")

    # ---- leaves -------------------------------------------------------------
    def visit_Constant(self, node, expected=None):
        v = node.value
        if isinstance(v, bool):
            return ir.const_bool(v)
        if isinstance(v, int):
            if not INT64_MIN <= v <= INT64_MAX:
                raise CompileError(node, "BigIntLiteral", "integer literal does not fit int64")
            return ir.const_int(v)
        if isinstance(v, float):
            return ir.const_float(v)
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise CompileError(node, "StrLiteral", "string literal with a lone surrogate") from None
            return ir.const_str(v)
        if v is None and expected is not None and expected.kind == "class":
            return inheritance.none_of(expected)  # None is a null reference of any class
        if v is None:
            return optional.none_of(expected) if expected is not None and expected.kind == "optional" \
                else optional.none_literal()
        raise CompileError(node, "Constant", f"unsupported constant type {type(v).__name__}")

    def visit_Name(self, node, expected=None):
        name = node.id
        if name in self.scope.pending and self.scope.lookup(name) is None:
            self.scope.probe(name, node)  # a use that does not tell the element types (yet)
        if self.scope.lookup(name) is None:
            glob = self.module_value(node)
            if glob is not None:
                return glob
            raise CompileError(node, "GlobalName", f"name {name!r} is not a parameter or local")
        if not self.scope.comprehensions or not any(name in f for f in self.scope.comprehensions):
            self.flow.require(node, name)
        if name == "self" and self.scope.init_of is not None:
            self.require_all_fields(node)  # the instance as a whole, inside __init__
        return self.scope.read(name)

    def module_value(self, node):
        """A module constant or math constant @p node names, lowered as its literal; else None."""
        names = self.scope.module.names
        if isinstance(node, ast.Name) and not self.scope.module_name(node.id):
            return None
        if isinstance(node, ast.Name) and node.id in names.constants:
            return self.visit(value_node(names.constants[node.id], node))
        if isinstance(node, ast.Name) and names.instances.get(node.id) in self.scope.module.classes:
            return inheritance.module_instance(self.scope.module, node)
        math_name = names.math_name(node)
        if math_name in MATH_CONSTANTS and (not isinstance(node, ast.Attribute) or
                                            self.scope.module_name(node.value.id)):
            return self.visit(value_node(MATH_CONSTANTS[math_name], node))
        return None

    # ---- operators ----------------------------------------------------------
    def binop(self, node, op_type, a, b):
        if OBJECT in (a.ty, b.ty):
            return boxed.binary(self.scope, node, op_type, a, b)
        if "class" in (a.ty.kind, b.ty.kind):
            return protocols.binary(self, node, op_type, a, b)
        if a.ty.kind == "set" or b.ty.kind == "set":
            return self.set_algebra(node, op_type, a, b, SET_ALGEBRA.get(op_type))
        if a.ty.kind in _SEQUENCES or b.ty.kind in _SEQUENCES:
            return self.sequence_binop(node, op_type, a, b)
        if not (a.ty.scalar and b.ty.scalar):
            raise CompileError(node, "OperandType", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}")
        if op_type is ast.Pow:
            return ir.call_op("pow", [a, b], arith(a.ty, b.ty))
        if op_type in _BITOPS:
            if FLOAT in (a.ty, b.ty):
                raise CompileError(node, "OperandType", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}")
            both_bool = a.ty == BOOL and b.ty == BOOL and _BITOPS[op_type].startswith("bit_")
            return ir.call_op(_BITOPS[op_type], [a, b], BOOL if both_bool else INT)
        op = _BINOPS.get(op_type)
        if op is None:
            raise CompileError(node, op_type.__name__)
        ty = FLOAT if op == "PrimDiv" else arith(a.ty, b.ty)
        return ir.binary(op, a, b, ty)

    def set_algebra(self, node, op_type, a, b, method):
        """s | t, s & t, s - t, s ^ t of two sets of one type: a new set, built as CPython's operator does."""
        if method is None or a.ty != b.ty:
            raise CompileError(node, "OperandType", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}")
        call = ir.fn("ast.ContainerMethodCall")(a.node, method, [b.node])
        return ir.E(call, a.ty, borrowed=fresh_borrowed(a.borrowed or b.borrowed, a.ty))

    def sequence_binop(self, node, op_type, a, b):
        """str/list + and * (concatenation and repetition)."""
        if op_type is ast.Add and a.ty == b.ty:
            return ir.call_op("concat", [a, b], a.ty, borrowed=fresh_borrowed(a.borrowed or b.borrowed, a.ty))
        if op_type is ast.Mult and a.ty.kind in _SEQUENCES and b.ty in (INT, BOOL):
            return ir.call_op("repeat", [a, self.as_int(b)], a.ty, borrowed=fresh_borrowed(a.borrowed, a.ty))
        if op_type is ast.Mult and b.ty.kind in _SEQUENCES and a.ty in (INT, BOOL):
            # n * s: n is evaluated first.
            return self.bind_first(self.as_int(a), lambda n: ir.call_op("repeat", [b, n], b.ty,
                                                                        borrowed=fresh_borrowed(b.borrowed, b.ty)))
        raise CompileError(node, "OperandType", f"{op_type.__name__} of {a.ty.text} and {b.ty.text}")

    def as_int(self, e):
        return ir.call_op("int", [e], INT) if e.ty == BOOL else e

    def visit_BinOp(self, node, expected=None):
        # [None] * n, [0] + xs, t + (x,): a display takes the expected list or tuple[T, ...] type
        hint = expected if expected is not None and expected.kind in ("list", "vtuple") else None
        a = self.value(node.left, hint if isinstance(node.left, (ast.List, ast.Tuple)) else None)
        b = self.value(node.right, hint if isinstance(node.right, (ast.List, ast.Tuple)) else None)
        if isinstance(node.op, ast.Add) and a.ty.kind == "vtuple" and isinstance(node.right, ast.Tuple):
            b = self.value(node.right, a.ty)  # t + (x,): the display is a tuple[T, ...] too
        elif isinstance(node.op, ast.Add) and b.ty.kind == "vtuple" and isinstance(node.left, ast.Tuple):
            a = self.value(node.left, b.ty)
        return self.binop(node, type(node.op), a, b)

    def visit_UnaryOp(self, node, expected=None):
        o = node.operand
        if isinstance(node.op, ast.USub) and isinstance(o, ast.Constant) and type(o.value) is int:
            # Fold -literal first: -9223372036854775808 is in range, its operand is not.
            return self.visit_Constant(ast.copy_location(ast.Constant(-o.value), node))
        if isinstance(node.op, ast.Not):
            return E(ir.fn("ast.PrimNot")(self.condition(o).node), BOOL)
        a = self.value(o)
        if a.ty == OBJECT:
            return boxed.unary(node, type(node.op), a)
        if a.ty.kind == "class":
            return protocols.unary(self, node, type(node.op), a)
        if not a.ty.scalar:
            raise CompileError(node, "OperandType", f"unary {type(node.op).__name__} of {a.ty.text}")
        if isinstance(node.op, ast.USub):
            return ir.call_op("neg", [a], FLOAT if a.ty == FLOAT else INT)
        if isinstance(node.op, ast.UAdd):
            return ir.call_op("pos", [a], FLOAT if a.ty == FLOAT else INT)
        if isinstance(node.op, ast.Invert) and a.ty != FLOAT:
            return ir.call_op("invert", [a], INT)
        raise CompileError(node, type(node.op).__name__)

    def truth(self, node, e):
        """Python truthiness; class instances (always true) and pending literals are refused."""
        if e.ty == OBJECT:
            return boxed.truth(e)
        if e.ty.kind == "optional":
            return optional.truth(self.scope, e, lambda v: self.truth(node, v))
        if e.ty.kind == "class":
            return protocols.truth(self, node, e)
        if e.ty.kind == "tuple":
            raise CompileError(node, "Truthiness", f"truth value of {e.ty.text}")
        return ir.truth(e)

    def condition(self, node):
        """@p node as a truth value. In a test, `a and b` only needs each operand's truth,
        so operands of different types are fine there (`if xs and n > 0:`)."""
        if isinstance(node, ast.BoolOp):
            parts = [self.condition(v) for v in node.values]
            result = parts[-1]
            for p in reversed(parts[:-1]):  # short-circuit, left to right
                result = ir.binary("PrimAnd" if isinstance(node.op, ast.And) else "PrimOr", p, result, BOOL)
            return result
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return E(ir.fn("ast.PrimNot")(self.condition(node.operand).node), BOOL)
        return self.truth(node, self.value(node, keep_optional=True))

    def visit_BoolOp(self, node, expected=None):
        values = [self.value(v, keep_optional=True) for v in node.values]
        is_and = isinstance(node.op, ast.And)
        mixed = optional.bool_op_type(values, is_and)
        if mixed is not None:
            return self.optional_bool_op(node, values, is_and, mixed)
        values = [optional.value_of(v) if v.ty.kind == "optional" else v for v in values]
        types = {v.ty for v in values}
        if len(types) != 1:
            # `x and y` returns one of the operands; with two types the result type would depend on the values.
            raise CompileError(node, "MixedBoolOp", "and/or operands must all have the same type")
        is_and = isinstance(node.op, ast.And)
        # Right fold: a and b and c == a and (b and c), with the same evaluation order.
        result = values[-1]
        for v in reversed(values[:-1]):
            if v.ty == BOOL:
                result = ir.binary("PrimAnd" if is_and else "PrimOr", v, result, BOOL)
            else:
                t = self.scope.temp("boolop", v.ty)
                keep_going = self.truth(node, t)
                body = ir.if_then_else(keep_going, result, t) if is_and else ir.if_then_else(keep_going, t, result)
                result = ir.let(t, v, body)
                result.borrowed = result.borrowed or v.borrowed
        return result

    def optional_bool_op(self, node, values, is_and, ty):
        """`x or default`, `a and b` with Optional operands (optional.bool_op_type): each operand
        once, left to right; the first that decides is the result."""
        result = optional.as_operand_result(values[-1], ty)
        for v in reversed(values[:-1]):
            t = self.scope.temp("boolop", v.ty)
            keep_going = self.truth(node, t)
            mine = optional.as_operand_result(t, ty)
            body = ir.if_then_else(keep_going, result, mine) if is_and else ir.if_then_else(keep_going, mine, result)
            result = ir.let(t, v, body)
        return result

    def compare(self, node, op, a, b):
        if isinstance(op, (ast.In, ast.NotIn)):
            e = self.contains(node, b, a)
            return E(ir.fn("ast.PrimNot")(e.node), BOOL) if isinstance(op, ast.NotIn) else e
        if OBJECT in (a.ty, b.ty):
            return boxed.compare(self.scope, node, op, a, b)
        name = _CMPOPS.get(type(op))
        if name is None:
            raise CompileError(node, type(op).__name__)
        if "class" in (a.ty.kind, b.ty.kind):
            by_dunder = protocols.compare(self, node, op, a, b)
            if by_dunder is not None:
                return by_dunder
        if optional.involves_none(a, b):
            return optional.compare(self.scope, node, op, a, b, lambda o, x, y: self.compare(node, o, x, y))
        if isinstance(op, (ast.Eq, ast.NotEq)):
            for t in (a.ty, b.ty):
                t.refuse_eq_by_fields(node, f"comparing {a.ty.text} with {b.ty.text}")
        if isinstance(op, (ast.Is, ast.IsNot)) and not (a.ty.kind == "class" and a.ty == b.ty):
            raise CompileError(node, "Is", "'is' compares class instances only natively")
        if not (a.ty.scalar and b.ty.scalar):
            if a.ty != b.ty:
                raise CompileError(node, "CompareTypes", f"comparison of {a.ty.text} with {b.ty.text}")
            if a.ty.kind != "class" and a.ty.has_float:
                raise CompileError(node, "FloatContainerCompare", f"comparing {a.ty.text}: CPython compares "
                                   "float elements by identity first, which native code cannot")
            if name not in ("PrimEQ", "PrimNE") and not a.ty.ordered:
                raise CompileError(node, "CompareTypes", f"{a.ty.text} values are not ordered")
        return ir.binary(name, a, b, BOOL)

    def contains(self, node, container, item):
        """item in container, evaluating item first (the left operand)."""
        c = container.ty
        if c.kind == "optional":
            container = optional.value_of(container)
            c = container.ty
        if c == OBJECT or (item.ty == OBJECT and c.kind not in ("list", "dict") or
                           item.ty == OBJECT and c.kind in ("list", "dict") and c.args[0] != OBJECT):
            return boxed.contains(self.scope, node, container, item)
        if c.kind == "tuple":
            return tuple_contains(self.scope, node, container, item)
        if c.kind == "str":
            want = STR
        elif c.kind in ("list", "set", "vtuple"):
            want = c.elem
        elif c.kind == "dict":
            want = c.args[0]
        elif c.kind == "class":
            return protocols.contains(self, node, container, item)
        else:
            raise CompileError(node, "In", f"'in' on {c.text}")
        if c.kind in ("list", "vtuple"):
            want.refuse_eq_by_fields(node, f"'in' on {c.text}")
        if c.kind in ("list", "vtuple") and want.has_float:
            raise CompileError(node, "FloatContainerCompare", f"'in' on {c.text}: CPython compares float "
                               "elements by identity first, which native code cannot")
        item = boxed.coerce(node, optional.coerce(item, want), want)  # `None in xs` of a list[Optional[int]]
        if item.ty.kind == "optional" and item.ty != want:
            item = optional.value_of(item)
        if item.ty != want:
            raise CompileError(node, "In", f"'in' of {item.ty.text} in {c.text}")
        if item.pure or container.pure:
            return ir.call_op("contains", [container, item], BOOL)
        return self.bind_first(item, lambda i: ir.call_op("contains", [container, i], BOOL))

    def visit_Compare(self, node, expected=None):
        operands = [node.left] + list(node.comparators)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            left, right = self.operand(operands[0]), self.operand(operands[1])
            if "class" in (left.ty.kind, right.ty.kind):
                return self.class_identity(node, left, right)
            return self.compare(node, node.ops[0], left, right)
        first = self.operand(operands[0])
        if len(node.ops) == 1:
            right = operands[1]
            if isinstance(node.ops[0], (ast.In, ast.NotIn)) and isinstance(right, ast.Name) and \
                    right.id in self.scope.pending and self.scope.pending[right.id].name in ("list", "set"):
                kind = self.scope.pending[right.id].name  # `x in seen` says what seen holds
                self.scope.knowledge.pin(right.id, (list_of if kind == "list" else set_of)(first.ty))
            return self.compare(node, node.ops[0], first, self.operand(right))
        # a < b < c: every operand evaluated once, in order, the rest skipped once one comparison fails.
        values = [first] + [self.operand(o) for o in operands[1:]]
        return self._chain(node, values, first)

    def operand(self, node):
        """A comparison operand: Optionals and None as they are (`x is None`, `x == y`)."""
        return self.value(node, allow_pending=isinstance(node, ast.Constant) and node.value is None,
                          keep_optional=True)

    def class_identity(self, node, a, b):
        """`a is b` / `a is not b` of class references (None being one, of any class)."""
        negate = isinstance(node.ops[0], ast.IsNot)
        nones = [isinstance(x, ast.Constant) and x.value is None for x in (node.left, node.comparators[0])]
        if any(nones):
            return inheritance.is_none(b if nones[0] else a, negate)
        if a.ty.kind != "class" or b.ty.kind != "class":
            raise CompileError(node, "Is", f"'is' between {a.ty.text} and {b.ty.text} natively")
        classes = self.scope.module.classes
        if a.ty != b.ty:
            if inheritance.is_subclass(classes, a.ty.name, b.ty.name):
                a = inheritance.cast(a, b.ty)
            elif inheritance.is_subclass(classes, b.ty.name, a.ty.name):
                b = inheritance.cast(b, a.ty)
        return self.compare(node, node.ops[0], a, b)

    def _chain(self, node, values, first):
        bindings = []
        left = first
        if not left.pure:
            t = self.scope.temp("cmp", left.ty)
            bindings.append((t, left))
            left = t

        def build(i, left):
            right = values[i + 1]
            if i + 1 == len(values) - 1:
                return self.compare(node, node.ops[i], left, right)
            t = right if right.pure else self.scope.temp("cmp", right.ty)
            rest = ir.binary("PrimAnd", self.compare(node, node.ops[i], left, t), build(i + 1, t), BOOL)
            return rest if right.pure else ir.let(t, right, rest)

        result = build(0, left)
        for t, v in reversed(bindings):
            result = ir.let(t, v, result)
        return result

    def visit_IfExp(self, node, expected=None):
        c = self.condition(node.test)
        keep = expected is None or expected.kind == "optional"
        t = self.value(node.body, expected, allow_pending=keep, keep_optional=keep)
        f = self.value(node.orelse, expected if expected else None if optional.is_none_literal(t) else t.ty,
                       allow_pending=keep, keep_optional=keep)
        if expected is None and optional.NONE_LITERAL in (t.ty, f.ty) or "optional" in (t.ty.kind, f.ty.kind):
            # `x if c else None`: an Optional of the other branch's type
            other = f if optional.is_none_literal(t) else t
            if optional.is_none_literal(other):
                raise CompileError(node, "NoneValue", "both branches are None")
            want = other.ty if other.ty.kind == "optional" else optional.optional_of(other.ty)
            t, f = optional.coerce(t, want), optional.coerce(f, want)
        if t.ty != f.ty:
            raise CompileError(node, "MixedIfExp", "both branches of a conditional expression need one type")
        return ir.if_then_else(c, t, f)

    # ---- f-strings ----------------------------------------------------------
    def visit_JoinedStr(self, node, expected=None):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(ir.const_str(v.value))
                continue
            plain = v.format_spec is None and v.conversion in (-1, ord("s"))
            e = self.value(v.value, keep_optional=plain)
            if isinstance(v.value, ast.Name) and v.value.id in self.scope.narrowed and \
                    self.scope.symbols[v.value.id].ty == OBJECT:  # a narrowed boxed value: format the object
                e = E(self.scope.symbols[v.value.id].node, OBJECT, True)
            if e.ty == OBJECT and v.conversion != ord("a") and formatting.constant_spec(v.format_spec) is not None:
                parts.append(boxed.text(self.scope, e, v.conversion, formatting.constant_spec(v.format_spec)))
                continue
            if e.ty.kind == "class":
                parts.append(protocols.field(self, v, e))
                continue
            if e.ty.kind == "optional" and e.ty.args[0] in (INT, BOOL, STR):  # None prints as None
                parts.append(optional.text(self.scope, e, lambda x: formatting.formatted(v, x, "")))
                continue
            parts.append(formatting.field(v, e))
        if not parts:
            return ir.const_str("")
        result = parts[0]
        for p in parts[1:]:
            result = ir.call_op("concat", [result, p], STR)
        return result
