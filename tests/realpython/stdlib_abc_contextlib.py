# expect: ok
# value: ["ran", true, ["<a", "<b", "b>", "a>"]]
# abc and contextlib.
import abc, contextlib
class Base(abc.ABC):
    @abc.abstractmethod
    def run(self): ...
class Impl(Base):
    def run(self):
        return "ran"
try:
    Base()
except TypeError:
    refused = True
log = []
@contextlib.contextmanager
def tag(name):
    log.append("<" + name)
    yield name
    log.append(name + ">")
with tag("a"), tag("b"):
    pass
with contextlib.suppress(KeyError):
    {}["missing"]
result = [Impl().run(), refused, log]
