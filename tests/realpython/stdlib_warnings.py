# expect: ok
# value: [["DeprecationWarning", "old"], ["UserWarning", "odd"]]
# warnings caught and recorded.
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("old", DeprecationWarning)
    warnings.warn("odd", UserWarning)
result = [(w.category.__name__, str(w.message)) for w in caught]
