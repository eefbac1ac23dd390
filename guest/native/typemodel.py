"""The frontend's view of types: int, float, bool, str, list[T], dict[K, V],
set[T], tuple[...], tuple[T, ...] (kind "vtuple"), Optional[T], user classes
and None. A Ty is a value (equal types
compare equal) that builds its C++ Type node on demand; the type rules of
the frontend work on Tys so they need no round trip to the runtime."""
from .errors import CompileError
from .registry import fn as _fn


class Ty:
    """One type. ``kind`` is int/float/bool/str/none/list/dict/set/tuple/class; ``args`` its parameters."""

    __slots__ = ("kind", "args", "name", "_node", "fields_eq")

    def __init__(self, kind, args=(), name=None):
        self.kind = kind
        self.args = tuple(args)
        self.name = name  # class name
        self._node = None
        self.fields_eq = False  # a class whose == compares fields (a dataclass or NamedTuple), "eq": has __eq__

    def __eq__(self, other):
        return isinstance(other, Ty) and (self.kind, self.args, self.name) == (other.kind, other.args, other.name)

    def __hash__(self):
        return hash((self.kind, self.args, self.name))

    def __repr__(self):
        return self.text

    # ---- queries ---------------------------------------------------------------
    @property
    def text(self):
        """Python's spelling: list[dict[str, int]]."""
        if self.kind in ("list", "set", "dict", "tuple"):
            return f"{self.kind}[{', '.join(a.text for a in self.args)}]" if self.args else f"{self.kind}[()]"
        if self.kind == "class":
            return self.name
        if self.kind == "optional":
            return f"Optional[{self.args[0].text}]"
        if self.kind == "vtuple":
            return f"tuple[{self.args[0].text}, ...]"
        if self.kind == "pending":
            return f"{self.name} (element type not known yet)"
        return "None" if self.kind == "none" else self.kind  # "object": a boxed value (boxed.py)

    @property
    def dtype(self):
        """The runtime data type text (scalars) or "handle"."""
        return _DTYPES.get(self.kind, "handle")

    @property
    def scalar(self):
        return self.kind in _DTYPES

    @property
    def mutable(self):
        """Can a value of this type change in place (so aliasing it is observable)?"""
        if self.kind in ("list", "dict", "set", "class"):
            return True
        return self.kind in ("tuple", "vtuple", "optional") and any(a.mutable for a in self.args)

    @property
    def hashable(self):
        """May it be a dict key / set member natively (int, bool, str, tuples of them)?"""
        if self.kind in ("int", "bool", "str", "object"):  # object: CPython hashes it (or raises its TypeError)
            return True
        return self.kind in ("tuple", "vtuple") and all(a.hashable for a in self.args)

    @property
    def set_member(self):
        """May it be a member of a native set? Hashable and no boxed value in it: a native set
        hashes and compares its members itself, and has no CPython hash or == for a box (a
        dict of boxed keys is CPython's own dict)."""
        if self.kind == "object":
            return False
        return self.hashable and all(a.set_member for a in self.args if isinstance(a, Ty))

    @property
    def has_float(self):
        """Is float part of it? (CPython compares container elements by identity first: NaN shows.)"""
        if self.kind == "float":
            return True
        return self.kind in ("list", "dict", "set", "tuple", "vtuple", "optional") and \
            any(a.has_float for a in self.args)

    def refuse_eq_by_fields(self, node, what):
        """Raise the CompileError for @p what (`comparing P with P`) if == on this type would
        compare a dataclass's or NamedTuple's fields (eq_by_fields)."""
        if self.eq_by_fields == "eq":
            raise CompileError(node, "ClassEq", f"{what}: == of a class with __eq__ calls it in CPython "
                               "(natively only where both operands are its instances)")
        if self.eq_by_fields:
            raise CompileError(node, "DataclassEq", f"{what}: == of a dataclass or NamedTuple compares fields in "
                               "CPython, identity natively")

    @property
    def eq_by_fields(self):
        """Does == on it (or on what it holds) run a dataclass's generated __eq__ or a NamedTuple's
        tuple ==, which compare fields where native code compares class instances by identity?
        (dataclassdefs.py)"""
        if self.kind == "class":
            return self.fields_eq
        return next((a.eq_by_fields for a in self.args if a.eq_by_fields), False)

    @property
    def ordered(self):
        """Does Python order its values with < (numbers, str, lists/tuples of those)?"""
        if self.scalar or self.kind in ("str", "object"):
            return True
        return self.kind in ("list", "tuple", "vtuple") and all(a.ordered for a in self.args)

    @property
    def elem(self):
        """Element type of list/set/tuple[T, ...], key type of dict."""
        return self.args[0]

    @property
    def node(self):
        """The C++ Type node (built once)."""
        if self._node is None:
            self._node = _build(self)
        return self._node


def _build(t):
    f = _fn
    if t.scalar:
        return f("ast.PrimType")(t.dtype)
    if t.kind == "str":
        return f("ast.StringType")()
    if t.kind == "none":
        return f("ast.NoneType")()
    if t.kind == "object":
        return f("ast.ObjectType")()
    if t.kind == "list":
        return f("ast.ListType")(t.args[0].node)
    if t.kind == "set":
        return f("ast.SetType")(t.args[0].node)
    if t.kind == "dict":
        return f("ast.DictType")(t.args[0].node, t.args[1].node)
    if t.kind == "tuple":
        return f("ast.TupleType")([a.node for a in t.args])
    if t.kind == "optional":
        return f("ast.OptionalType")(t.args[0].node)
    if t.kind == "vtuple":
        return f("ast.VarTupleType")(t.args[0].node)
    raise ValueError(f"type {t.text} has no C++ node of its own")


_DTYPES = {"int": "int64", "float": "float64", "bool": "bool"}

INT, FLOAT, BOOL, STR, NONE = Ty("int"), Ty("float"), Ty("bool"), Ty("str"), Ty("none")
OBJECT = Ty("object")  # a boxed value: any Python object (boxed.py)


def list_of(t):
    return Ty("list", (t,))


def set_of(t):
    return Ty("set", (t,))


def dict_of(k, v):
    return Ty("dict", (k, v))


def tuple_of(items):
    return Ty("tuple", tuple(items))


def vtuple_of(t):
    """tuple[t, ...]: a tuple of any length (natively a list nobody changes)."""
    return Ty("vtuple", (t,))


def optional_of(t):
    """Optional[t] (None or a t); Optional of an Optional is the Optional itself, as in typing."""
    return t if t.kind == "optional" else Ty("optional", (t,))


def pending(kind):
    """The type of an empty literal ([], {}, set()) before its element types are known."""
    return Ty("pending", (), kind)


def fresh_borrowed(source_borrowed, ty):
    """Is a new container built from a borrowed one borrowed itself? Only if
    its elements are mutable (they are then the argument's own objects)."""
    return source_borrowed and any(a.mutable for a in ty.args)


def from_node(node, classes):
    """The Ty of a C++ Type node (result types the C++ rules computed)."""
    get = _fn("runtime.NodeGetAttr")
    kind = node.type_name
    if kind == "PrimType":
        return {"int64": INT, "float64": FLOAT, "bool": BOOL}[get(node, "dtype")]
    if kind == "StringType":
        return STR
    if kind == "NoneType":
        return NONE
    if kind == "ObjectType":
        return OBJECT
    if kind == "ListType":
        item = from_node(get(node, "item_type"), classes)
        return vtuple_of(item) if get(node, "is_tuple") else list_of(item)
    if kind == "SetType":
        return set_of(from_node(get(node, "item_type"), classes))
    if kind == "DictType":
        return dict_of(from_node(get(node, "key_type"), classes), from_node(get(node, "value_type"), classes))
    if kind == "TupleType":
        return tuple_of(from_node(f, classes) for f in get(node, "fields"))
    if kind == "OptionalType":
        return optional_of(from_node(get(node, "item_type"), classes))
    if kind == "ClassType":
        return classes[get(node, "name")]
    raise ValueError(f"no frontend type for {kind}")


def iterator_type(node):
    """The state of a lowered for loop (only ever a frontend temporary); @p node is its C++ IteratorType."""
    t = Ty("iterator")
    t._node = node
    return t
