"""Expression family, containers: list/set/dict/tuple displays, subscripts,
slices and class field reads. Element types are exact (CPython keeps an
int an int inside a list[float], so native code refuses to mix them)."""
import ast
import dis

from . import boxed
from . import classmembers
from . import inheritance
from . import irbuilder as ir
from .errors import CompileError
from .irbuilder import E
from .modulenames import value_node
from .typemodel import BOOL, INT, OBJECT, dict_of, fresh_borrowed, list_of, pending, set_of, tuple_of


class ContainerExprs:
    """Mixed into ExprParser (exprparser.py)."""

    def _items(self, nodes, what, expected_elem):
        items = [self.value(n, expected_elem) for n in nodes]
        for n, e in zip(nodes, items):
            self.no_borrowed_store(n, e, what)
        return items

    def _elem_type(self, node, items, expected_elem, what):
        types = {e.ty for e in items}
        if expected_elem is not None:
            types.add(expected_elem)
        if len(types) != 1:
            raise CompileError(node, "MixedElements", f"{what} elements of different types "
                               f"({', '.join(sorted(t.text for t in types))}); native containers hold one type")
        return types.pop()

    def _expected(self, expected, kind):
        return expected if expected is not None and expected.kind == kind else None

    def empty(self, node, kind, expected):
        """[] / {} / set(): typed by context, else pending until a use tells its element types."""
        t = self._expected(expected, kind)
        if t is None:
            return E(None, pending(kind))
        if kind == "list":
            return E(ir.fn("ast.ListLiteral")(t.node, []), t)
        if kind == "set":
            return E(ir.fn("ast.SetLiteral")(t.node, []), t)
        return E(ir.fn("ast.DictLiteral")(t.node, [], []), t)

    def visit_List(self, node, expected=None):
        want = self._expected(expected, "list")
        if not node.elts:
            return self.empty(node, "list", expected)
        items = self._items(node.elts, "a list display", want.elem if want else None)
        t = list_of(self._elem_type(node, items, want.elem if want else None, "list"))
        return E(ir.fn("ast.ListLiteral")(t.node, [e.node for e in items]), t)

    def visit_Set(self, node, expected=None):
        literal = self.set_literal(node, expected)
        if _folded_set_display(node):
            # CPython made a frozenset constant of the items when compiling and merges it into a
            # new set when the display runs: that table, not one of adds (pyset.h, set_folded).
            return ir.call_op("set_folded", [literal], literal.ty)
        return literal

    def frozen_display(self, node):
        """A display CPython iterates as a frozenset constant (`for x in {1, 2}`), or None."""
        if not isinstance(node, ast.Set) or not _frozen_iterable(node):
            return None
        literal = self.set_literal(node, None)
        return ir.call_op("set_frozen", [literal], literal.ty)

    def set_literal(self, node, expected):
        """The display's items added in order."""
        want = self._expected(expected, "set")
        items = self._items(node.elts, "a set display", want.elem if want else None)
        elem = self._elem_type(node, items, want.elem if want else None, "set")
        if not elem.set_member:
            raise CompileError(node, "KeyType", f"{elem.text} cannot be a set member natively")
        t = set_of(elem)
        return E(ir.fn("ast.SetLiteral")(t.node, [e.node for e in items]), t)

    def visit_Dict(self, node, expected=None):
        want = self._expected(expected, "dict")
        if not node.keys:
            return self.empty(node, "dict", expected)
        if any(k is None for k in node.keys):
            raise CompileError(node, "DictUnpack", "** in a dict display")
        keys, values = [], []
        for k, v in zip(node.keys, node.values):  # Python: key, value, key, value, ...
            keys.append(self.value(k, want.args[0] if want else None))
            values.append(self.value(v, want.args[1] if want else None))
            self.no_borrowed_store(v, values[-1], "a dict display")
        kt = self._elem_type(node, keys, want.args[0] if want else None, "dict key")
        vt = self._elem_type(node, values, want.args[1] if want else None, "dict value")
        if not kt.hashable:
            raise CompileError(node, "KeyType", f"{kt.text} cannot be a dict key natively")
        t = dict_of(kt, vt)
        return E(ir.fn("ast.DictLiteral")(t.node, [e.node for e in keys], [e.node for e in values]), t)

    def visit_Tuple(self, node, expected=None):
        if expected is not None and expected.kind == "vtuple":  # (a, b) where a tuple[T, ...] is wanted
            items = self._items(node.elts, "a tuple display", expected.elem)
            if any(e.ty != expected.elem for e in items):
                raise CompileError(node, "TypeChange", f"a tuple display for {expected.text} needs "
                                   f"{expected.elem.text} items")
            return E(ir.fn("ast.ListLiteral")(expected.node, [e.node for e in items]), expected)
        want = self._expected(expected, "tuple")
        if want is not None and len(want.args) != len(node.elts):
            want = None
        items = [self.value(n, want.args[i] if want else None) for i, n in enumerate(node.elts)]
        t = tuple_of(e.ty for e in items)
        return E(ir.fn("ast.TupleLiteral")([e.node for e in items]), t, borrowed=any(e.borrowed for e in items))

    # ---- subscripts -----------------------------------------------------------
    def index_value(self, node):
        i = self.value(node)
        if i.ty == BOOL:
            return ir.call_op("int", [i], INT)
        return i

    def visit_Subscript(self, node, expected=None):
        obj = self.value(node.value)
        if obj.ty == OBJECT and not isinstance(node.slice, ast.Slice):
            return boxed.getitem(self.scope, node, obj, self.value(node.slice))
        if isinstance(node.slice, ast.Slice):
            return self.slice(node, obj, node.slice)
        k = obj.ty.kind
        if k in ("list", "str", "tuple", "vtuple"):
            index = self.index_value(node.slice)
            if index.ty != INT:
                raise CompileError(node.slice, "IndexType", f"{obj.ty.text} indices must be int, not {index.ty.text}")
            if k == "tuple":
                return self.tuple_item(node, obj, index)
            ty = obj.ty.elem if k in ("list", "vtuple") else obj.ty
        elif k == "dict":
            index = self.value(node.slice, obj.ty.args[0])
            if index.ty != obj.ty.args[0]:
                raise CompileError(node.slice, "IndexType", f"key of type {index.ty.text} for {obj.ty.text}")
            ty = obj.ty.args[1]
        else:
            raise CompileError(node, "Subscript", f"{obj.ty.text} is not subscriptable natively")
        return E(ir.fn("ast.ContainerGetItem")(obj.node, index.node), ty, borrowed=obj.borrowed)

    def tuple_item(self, node, obj, index):
        fields = obj.ty.args
        c = node.slice
        if isinstance(c, ast.UnaryOp) and isinstance(c.op, ast.USub) and isinstance(c.operand, ast.Constant):
            c = ast.Constant(-c.operand.value)
        if isinstance(c, ast.Constant) and type(c.value) is int:
            i = c.value + len(fields) if c.value < 0 else c.value
            if not 0 <= i < len(fields):
                raise CompileError(node, "TupleIndex", "constant tuple index out of range")
            ty = fields[i]
        elif fields and all(f == fields[0] for f in fields):
            ty = fields[0]
        else:
            raise CompileError(node, "TupleIndex", "a variable index needs a tuple of one element type")
        return E(ir.fn("ast.ContainerGetItem")(obj.node, index.node), ty, borrowed=obj.borrowed)

    def slice(self, node, obj, s):
        if obj.ty.kind not in ("list", "str", "vtuple"):
            raise CompileError(node, "Slice", f"slicing {obj.ty.text}")
        parts = []
        for p in (s.lower, s.upper, s.step):
            if p is None:
                parts.append(None)
                continue
            e = self.index_value(p)
            if e.ty != INT:
                raise CompileError(p, "IndexType", f"slice indices must be int, not {e.ty.text}")
            parts.append(e.node)
        # A fresh list; its elements are the argument's own objects if they are mutable.
        return E(ir.fn("ast.ContainerGetSlice")(obj.node, *parts), obj.ty, borrowed=fresh_borrowed(obj.borrowed, obj.ty))

    # ---- class fields ---------------------------------------------------------
    def visit_Attribute(self, node, expected=None):
        glob = self.module_value(node)  # math.pi
        if glob is not None:
            return glob
        classes = self.scope.module.classes
        if isinstance(node.value, ast.Name) and node.value.id in classes and self.scope.module_name(node.value.id):
            owner, value = classmembers.find(classes[node.value.id], "constants", node.attr)
            if owner is None:
                raise CompileError(node, "ClassAttribute", f"class attribute {ast.unparse(node)!r} (class-level "
                                   "literal constants only natively)")
            return self.visit(value_node(value, node))
        own = isinstance(node.value, ast.Name) and node.value.id == "self" and self.scope.init_of is not None
        obj = self.scope.read("self") if own else self.value(node.value)
        if obj.ty.kind == "object":  # a boxed value: CPython's getattr (e.args of a caught exception)
            return ir.call_op("box_getattr", [obj, ir.const_str(node.attr)], obj.ty)
        if obj.ty.kind != "class":
            raise CompileError(node, "Attribute", f"attribute {node.attr!r} of {obj.ty.text}")
        info = self.scope.module.classes[obj.ty.name]
        if node.attr not in info.fields:
            return self.class_member(node, obj, info, own)
        if own:  # in __init__ a field is read only once set
            self.flow.require(node, "self." + node.attr)
        return E(ir.fn("ast.ClassGetAttr")(obj.node, node.attr), info.fields[node.attr])

    def class_member(self, node, obj, info, own):
        """obj.name that is no field: a @property's getter call, or a class constant (obj still
        evaluated, and None still CPython's AttributeError)."""
        if classmembers.find(info, "properties", node.attr)[0] is not None:
            if own:
                raise CompileError(node, "SelfInInit", f"property {node.attr!r} read in __init__")
            is_self = isinstance(node.value, ast.Name) and node.value.id == "self" and self.current_class() is not None
            return self.scope.module.method_calls.call(obj, node.attr, [], node, is_self)
        owner, value = classmembers.find(info, "constants", node.attr)
        if owner is None:
            raise CompileError(node, "UnknownField", f"{obj.ty.name} has no field {node.attr!r}")
        if obj.pure and isinstance(node.value, ast.Name) and node.value.id == "self":
            return self.visit(value_node(value, node))
        value = self.visit(value_node(value, node))
        return ir.let(self.scope.temp("recv", obj.ty), inheritance.not_none(obj), value)


def _folded_set_display(node):
    """Whether CPython compiles the set display @p node as `BUILD_SET 0; LOAD_CONST
    frozenset(...); SET_UPDATE 1` (more than two items, all constant after its own
    folding: `-1`, `(1, 2)`, `2 ** 8`) rather than adding the items one by one. The two
    build different tables (set_merge resizes once, up front), so different orders. This is
    the display compiled from source, as the guest compiles programs: a .pyc would have its
    frozenset rebuilt once more by marshal, in its own order. Asking
    CPython's own compiler keeps its folding rules exactly (nothing is run)."""
    if len(node.elts) <= 2:
        return False
    display = ast.fix_missing_locations(ast.Expression(ast.Set(node.elts)))
    ops = [(i.opname, i.argval) for i in dis.get_instructions(compile(display, "<display>", "eval"))
           if i.opname not in ("RESUME", "RETURN_VALUE")]
    return len(ops) == 3 and ops[0] == ("BUILD_SET", 0) and ops[1][0] == "LOAD_CONST" and \
        isinstance(ops[1][1], frozenset) and ops[2] == ("SET_UPDATE", 1)


def _frozen_iterable(node):
    """Whether CPython's AST optimizer turns the display @p node, iterated, into a frozenset
    constant (every item a constant after its folding, any number of items)."""
    loop = ast.fix_missing_locations(ast.Module([ast.For(ast.Name("_", ast.Store()), ast.Set(node.elts),
                                                         [ast.Pass()], [], None)], []))
    ops = [i for i in dis.get_instructions(compile(loop, "<display>", "exec"))]
    return any(a.opname == "LOAD_CONST" and isinstance(a.argval, frozenset) and b.opname == "GET_ITER"
               for a, b in zip(ops, ops[1:]))

