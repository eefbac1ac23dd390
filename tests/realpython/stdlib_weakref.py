# expect: ok
# value: [true, true, 0]
# weakref: a dead referent and a WeakValueDictionary.
import weakref, gc
class Obj:
    pass
o = Obj()
r = weakref.ref(o)
d = weakref.WeakValueDictionary()
d["k"] = o
alive = r() is o
del o
gc.collect()
result = [alive, r() is None, len(d)]
