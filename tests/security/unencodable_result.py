# expect: error
# Return an object JSON cannot carry.
result = object()
