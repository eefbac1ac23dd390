"""ExprParser: the expression families (core operators, containers, calls,
iteration, comprehensions) combined into the one object the statement
parser uses. Each family lives in its own module."""
from .callables import FunctionValueExprs
from .calls import CallExprs
from .comprehensions import ComprehensionExprs
from .containers import ContainerExprs
from .expressions import CoreExprs
from .lambdas import LambdaExprs
from .loops import LoopExprs
from .sortkeys import SortKeyExprs


class ExprParser(CoreExprs, ContainerExprs, CallExprs, LoopExprs, ComprehensionExprs, SortKeyExprs,
                 FunctionValueExprs, LambdaExprs):
    """Python ``ast`` expressions -> typed C++ AST expressions (irbuilder.E)."""
